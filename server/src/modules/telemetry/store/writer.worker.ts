// The writer thread: its own connection to the database file (WAL: the main thread's reads never wait for it), one
// transaction per batch it is handed. Started by writer-thread.ts; answers every batch with its result or its error,
// and finishes a checkpoint between two batches when the checkpoint thread asks (so the WAL starts over).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createBatchStore, walFrameBytes, type WriteBatch } from './write-batch.js';
import type { WriterAnswer } from './writer-thread.js';

const { file, gate, walCtl, walLimitFrames } = workerData as {
  file: string;
  gate?: Int32Array;
  walCtl?: Int32Array;
  walLimitFrames?: number;
};
/** the longest the thread defers its next transaction to a write of the event loop (then it takes its turn anyway) */
const MAX_YIELD_MS = 100;
const sqlite = new Database(file);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('busy_timeout = 5000');
// the open end of every series' clustered range is hot: keep those pages in this connection's cache
sqlite.pragma('cache_size = -65536');
// the WAL is copied into the database file by the checkpoint thread (writer-thread.ts), never inside a batch's commit
sqlite.pragma('wal_autocheckpoint = 0');
// a WAL that grew past this (before it could start over) is cut back to it when it does
if (walLimitFrames) sqlite.pragma(`journal_size_limit = ${walLimitFrames * walFrameBytes(sqlite)}`);
const store = createBatchStore(sqlite);
const answer = (m: WriterAnswer, transfer?: ArrayBuffer[]) => parentPort!.postMessage(m, transfer);

/**
 * The checkpoint thread copied and synced most of the WAL: copy the rest (the frames of the last few ms). With
 * every frame copied, this connection's next write transaction starts the WAL over (SQLite does so only then).
 */
function finishCheckpoint(ctl: Int32Array) {
  const started = performance.now();
  let caughtUp = false;
  try {
    const [r] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    caughtUp = r!.busy === 0 && r!.checkpointed === r!.log;
  } catch {
    // busy or failing: the checkpoint thread asks again
  }
  Atomics.store(ctl, 0, 0);
  answer({ walCheckpoint: { ms: performance.now() - started, caughtUp } });
}

parentPort!.on('message', (batch: WriteBatch | 'close') => {
  if (batch === 'close') {
    sqlite.close();
    parentPort!.close();
    return;
  }
  // the event loop is writing (registry, presence, HTTP calls): let it have the lock first, so its short writes never
  // starve behind back-to-back batches (its busy handler only polls)
  if (gate)
    for (let waited = 0; Atomics.load(gate, 0) > 0 && waited < MAX_YIELD_MS; waited += 2)
      Atomics.wait(gate, 0, Atomics.load(gate, 0), 2);
  try {
    const result = store.write(batch);
    answer({ ok: true, result }, [result.duplicates.buffer as ArrayBuffer]);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    answer({
      ok: false,
      id: batch.id,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      ...(typeof code === 'string' ? { code } : {}),
    });
  }
  // after the answer, so the batch's points count as stored without waiting for it
  if (walCtl && Atomics.load(walCtl, 0) === 1) finishCheckpoint(walCtl);
});
