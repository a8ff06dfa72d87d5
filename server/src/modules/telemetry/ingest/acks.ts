// Held acknowledgements: a queued QoS 1 or 2 message keeps its broker acknowledgement until the writer settles it
// (stored: acknowledged; given up or refused: never, the device sends it again). With NATS another gateway may store
// it: the message carries a ticket instead and the storing gateway reports back (remote-acks.ts).
import type { AckRelease } from '../../../platform/mqtt/types.js';
import type { TelemetryMessage } from '../message.js';
import type { RemoteAcks } from './remote-acks.js';

export function createHeldAcks(remote: RemoteAcks | null) {
  return {
    /** `m` keeps its acknowledgement until it is settled */
    hold(m: TelemetryMessage, release: AckRelease): void {
      if (remote) m.ack = remote.ticket(release);
      else m.release = release;
    },
    /** `m` is stored or given up: its acknowledgement goes (once), wherever it is held */
    settle(m: TelemetryMessage, stored: boolean): void {
      if (m.ack) return remote?.settled(m.ack, stored);
      const release = m.release;
      if (!release) return;
      m.release = undefined;
      release(stored);
    },
    metrics(): Record<string, number> {
      return remote ? { ...remote.stats, remote_acks_waiting: remote.waiting } : {};
    },
    close(): void {
      remote?.close();
    },
  };
}

export type HeldAcks = ReturnType<typeof createHeldAcks>;
