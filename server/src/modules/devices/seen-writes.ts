// last_online_ts of devices that keep talking: the moves are gathered (the newest per device) and written a chunk at a
// time, each chunk in a turn of the event loop of its own, never waiting for SQLite's write lock while it can help it.
//
// Why: on SQLite these statements run on the event loop, and the telemetry writer thread holds the database's write
// lock for every batch it commits (tens of ms, 100+ under load). A flush of 5,000 devices' moves (one a device every
// SEEN_WRITE_MS) in one statement that waited for that lock held the event loop 24–105 ms once a second at 150,000
// points/s (MQTT acknowledgements, HTTP and socket.io waited with it). Now a chunk is tried without waiting
// (`move(…, false)`) and tried again every `retryMs` while the lock is held; one not written for `blockAfterMs` waits
// for it, so nothing is held back for long. The rule engine's writes do the same (rules/write-queue.ts).
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';

/** writes these moves (at most `chunk`); `wait` false: only if the lock is free now; answers whether it wrote them */
export type MoveLastSeen = (moves: readonly (readonly [id: number, ts: number])[], wait: boolean) => Promise<boolean>;

export interface SeenWritesOptions {
  /** moves per statement */
  chunk: number;
  retryMs?: number;
  blockAfterMs?: number;
}

export function createSeenWrites(move: MoveLastSeen, { chunk, retryMs = 2, blockAfterMs = 500 }: SeenWritesOptions) {
  const pending = new Map<number, number>();
  let flushing: Promise<void> | null = null;
  const counts = { written: 0, busy: 0, waited: 0 };

  async function write(): Promise<void> {
    while (pending.size) {
      const moves: [number, number][] = [];
      for (const [id, ts] of pending) {
        moves.push([id, ts]);
        pending.delete(id);
        if (moves.length === chunk) break;
      }
      const since = performance.now();
      try {
        for (;;) {
          const wait = performance.now() - since >= blockAfterMs;
          if (await move(moves, wait)) {
            if (wait) counts.waited++;
            break;
          }
          counts.busy++;
          await delay(retryMs);
        }
      } catch (err) {
        // kept for the next flush (a storage fault passes), unless the device moved again meanwhile
        for (const [id, ts] of moves) if (!pending.has(id)) pending.set(id, ts);
        throw err;
      }
      counts.written += moves.length;
      if (pending.size) await nextTurn();
    }
  }

  return {
    /** the device was heard at `ts`: its last_online_ts moves there at the next flush */
    add(id: number, ts: number): void {
      pending.set(id, ts);
    },
    /** the device went offline: its pending move is dropped */
    drop(id: number): void {
      pending.delete(id);
    },
    /** writes every pending move, those added meanwhile included; one flush at a time (a second call joins it) */
    flush(): Promise<void> {
      return (flushing ??= write().finally(() => (flushing = null)));
    },
    pending: () => pending.size,
    /** moves written, tries that met the lock, chunks written waiting for it */
    counts: () => ({ ...counts }),
  };
}
