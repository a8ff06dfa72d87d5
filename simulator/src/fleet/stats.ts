// What a run counts: connections, messages, errors, commands, faults and domain events; the progress line and the
// summary are drawn from it.
export interface FleetStats {
  planned: number;
  registered: number;
  /** devices with no MQTT path in the gateway (Dummy, Emma, Imou): registered only */
  registeredOnly: number;
  connections: number;
  connected: number;
  messages: number;
  /** readings of the past sent by a history replay (stamped with their simulated time) */
  history: number;
  bytes: number;
  errors: number;
  lastError?: string;
  commands: { ok: number; refused: number; silent: number };
  downlinks: number;
  malformed: number;
  flaps: number;
  events: Record<string, number>;
}

export const newStats = (planned: number): FleetStats => ({
  planned,
  registered: 0,
  registeredOnly: 0,
  connections: 0,
  connected: 0,
  messages: 0,
  history: 0,
  bytes: 0,
  errors: 0,
  commands: { ok: 0, refused: 0, silent: 0 },
  downlinks: 0,
  malformed: 0,
  flaps: 0,
  events: {},
});

/** messages per second over a sliding window of one-second samples */
export class RateMeter {
  private samples: { t: number; n: number }[] = [];
  sample(t: number, total: number): number {
    this.samples.push({ t, n: total });
    while (this.samples.length > 6) this.samples.shift();
    const first = this.samples[0]!;
    return t > first.t ? ((total - first.n) * 1000) / (t - first.t) : 0;
  }
}
