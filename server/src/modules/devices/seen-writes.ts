// last_online_ts of devices that keep talking: the moves are gathered (the newest per device) and written a chunk at a
// time, each chunk in a turn of the event loop of its own.
//
// Why: on SQLite these statements run on the event loop. A flush of 5,000 devices' moves (one a device every
// SEEN_WRITE_MS) in one statement, which also waited for the write lock the telemetry writer thread holds for each
// batch, held the event loop 24–105 ms once a second at 150,000 points/s (MQTT acknowledgements, HTTP and socket.io
// waited with it). Now each chunk is a short statement of its own, and the store writes it without waiting for the
// lock while it can help it (as every write of the store: platform/db/store.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';

/** writes these moves (at most the chunk) */
export type MoveLastSeen = (moves: readonly (readonly [id: number, ts: number])[]) => Promise<void>;

export function createSeenWrites(move: MoveLastSeen, chunk: number) {
  const pending = new Map<number, number>();
  let flushing: Promise<void> | null = null;

  async function write(): Promise<void> {
    while (pending.size) {
      const moves: [number, number][] = [];
      for (const [id, ts] of pending) {
        moves.push([id, ts]);
        pending.delete(id);
        if (moves.length === chunk) break;
      }
      try {
        await move(moves);
      } catch (err) {
        // kept for the next flush (a storage fault passes), unless the device moved again meanwhile
        for (const [id, ts] of moves) if (!pending.has(id)) pending.set(id, ts);
        throw err;
      }
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
  };
}
