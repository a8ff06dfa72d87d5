// What the ingest path turned away, counted: by reason, as whole messages, single points or state reports, and per
// device (the last reason and when) for the device's data screen. The per-device table is bounded: past its size the
// device counted longest ago is forgotten.
import type { RejectReason } from '../../devices/families/index.js';

export interface DeviceRejects {
  count: number;
  last_reason: RejectReason;
  last_ts: number;
}

export const MAX_TRACKED_DEVICES = 10_000;

export class IngestRejects {
  messages = 0;
  points = 0;
  states = 0;
  private readonly byReason: Partial<Record<RejectReason, number>> = {};
  private readonly byDevice = new Map<number, DeviceRejects>();

  constructor(
    private readonly now: () => number,
    private readonly maxTrackedDevices = MAX_TRACKED_DEVICES,
  ) {}

  /** counts a rejected message, or `points` rejected points or `states` refused state reports of a message */
  count(reason: RejectReason, deviceId: number | undefined, points = 0, states = 0): RejectReason {
    this.byReason[reason] = (this.byReason[reason] ?? 0) + 1;
    if (states) this.states += states;
    else if (points) this.points += points;
    else this.messages++;
    if (deviceId === undefined) return reason;
    let r = this.byDevice.get(deviceId);
    if (!r) {
      if (this.byDevice.size >= this.maxTrackedDevices) this.byDevice.delete(this.byDevice.keys().next().value!);
      this.byDevice.set(deviceId, (r = { count: 0, last_reason: reason, last_ts: 0 }));
    }
    r.count++;
    r.last_reason = reason;
    r.last_ts = this.now();
    return reason;
  }

  of(deviceId: number): DeviceRejects | undefined {
    return this.byDevice.get(deviceId);
  }

  metrics() {
    return {
      rejected_messages: this.messages,
      rejected_points: this.points,
      rejected_states: this.states,
      rejected: { ...this.byReason },
      rejected_by_device: Object.fromEntries(this.byDevice),
    };
  }
}
