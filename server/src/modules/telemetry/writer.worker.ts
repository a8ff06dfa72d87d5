// The writer thread: its own connection to the database file (WAL: the main thread's reads never wait for it), one
// transaction per batch it is handed. Started by writer-thread.ts; answers every batch with its result or its error.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createBatchStore, type WriteBatch } from './write-batch.js';

const { file, gate } = workerData as { file: string; gate?: Int32Array };
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
const store = createBatchStore(sqlite);

parentPort!.on('message', (batch: WriteBatch | 'close') => {
  if (batch === 'close') {
    sqlite.close();
    parentPort!.close();
    return;
  }
  // the event loop is writing (registry, presence, HTTP calls): let it have the lock first, so its short writes never
  // starve behind back-to-back batches (its busy handler only polls)
  if (gate) for (let waited = 0; Atomics.load(gate, 0) > 0 && waited < MAX_YIELD_MS; waited += 2) Atomics.wait(gate, 0, Atomics.load(gate, 0), 2);
  try {
    const result = store.write(batch);
    parentPort!.postMessage({ ok: true, result }, [result.duplicates.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort!.postMessage({ ok: false, id: batch.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
