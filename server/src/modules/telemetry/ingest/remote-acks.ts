// BUS=nats: an acknowledgement still means stored when another gateway of the writer queue group stores the message.
// The gateway that received a QoS 1/2 message keeps its held acknowledgement under a number and sends the number with
// the message (`TelemetryMessage.ack`); whichever gateway stores it reports, after its batch committed, the numbers it
// stored or gave up on `acked.<origin>`, gathered into one bus message per origin per turn of the event loop. Core
// NATS delivers at most once: a message (or its report) lost with a gateway that stopped is never reported, so a
// number waiting longer than REMOTE_ACK_TIMEOUT_MS is let go unacknowledged (the connection closes, the device sends
// the message again) instead of holding back every later acknowledgement of its broker thread for ever.
import type { Bus, BusSubscription } from '../../../platform/bus/types.js';
import type { AckRelease } from '../../../platform/mqtt/types.js';

/** Travels with a message over the bus: whose acknowledgement it holds. */
export interface AckTicket {
  origin: string;
  n: number;
}

/** What a storing gateway reports to a message's origin: numbers stored, and numbers given up (not acknowledged). */
export interface AckReport {
  ok: number[];
  no: number[];
}

/**
 * Longer than any batch and its retries in normal operation; a storage fault of the storing gateway that lasts longer
 * closes the device's connection (as the keep-alive check does for a paused one) and the device sends the message again.
 */
export const REMOTE_ACK_TIMEOUT_MS = 30_000;

export const ackSubject = (origin: string) => `acked.${origin}`;

export interface RemoteAcks {
  /** keeps `release` until the message is reported; the ticket goes with the message */
  ticket(release: AckRelease): AckTicket;
  /** this gateway settled a message that carried `ticket`: its origin hears it (at the end of this turn) */
  settled(ticket: AckTicket, stored: boolean): void;
  /** acknowledgements still waiting for a report */
  readonly waiting: number;
  readonly stats: { remote_acks_sent: number; remote_acks_timed_out: number };
  close(): void;
}

export function createRemoteAcks(
  bus: Bus,
  origin: string,
  opts: { now?: () => number; timeoutMs?: number } = {},
): RemoteAcks {
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? REMOTE_ACK_TIMEOUT_MS;
  /** number → release and when it was taken; a Map keeps insertion order, so the oldest come first */
  const waiting = new Map<number, { release: AckRelease; at: number }>();
  let next = 1;
  const stats = { remote_acks_sent: 0, remote_acks_timed_out: 0 };

  function letGo(n: number, acknowledge: boolean) {
    const w = waiting.get(n);
    if (!w) return; // timed out already
    waiting.delete(n);
    w.release(acknowledge);
  }

  const subscription: BusSubscription = bus.subscribe<AckReport>(ackSubject(origin), ({ data }) => {
    for (const n of data.ok) letGo(n, true);
    for (const n of data.no) letGo(n, false);
  });

  /** reports to other origins, sent once per turn */
  const outgoing = new Map<string, AckReport>();
  let sending: NodeJS.Immediate | undefined;
  function send() {
    sending = undefined;
    for (const [to, report] of outgoing) {
      bus.publish(ackSubject(to), report);
      stats.remote_acks_sent += report.ok.length + report.no.length;
    }
    outgoing.clear();
  }

  const sweep = setInterval(
    () => {
      const before = now() - timeoutMs;
      for (const [n, w] of waiting) {
        if (w.at > before) break;
        stats.remote_acks_timed_out++;
        letGo(n, false);
      }
    },
    Math.min(1000, timeoutMs),
  );
  sweep.unref();

  return {
    ticket(release) {
      const n = next++;
      waiting.set(n, { release, at: now() });
      return { origin, n };
    },
    settled(ticket, stored) {
      if (ticket.origin === origin) return letGo(ticket.n, stored);
      let report = outgoing.get(ticket.origin);
      if (!report) outgoing.set(ticket.origin, (report = { ok: [], no: [] }));
      (stored ? report.ok : report.no).push(ticket.n);
      sending ??= setImmediate(send);
    },
    get waiting() {
      return waiting.size;
    },
    stats,
    close() {
      clearInterval(sweep);
      if (sending) (clearImmediate(sending), send());
      subscription.unsubscribe();
    },
  };
}
