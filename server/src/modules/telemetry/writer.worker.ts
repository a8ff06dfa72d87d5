// The writer thread: its own connection to the database file (WAL: the main thread's reads never wait for it), one
// transaction per batch it is handed. Started by writer-thread.ts; answers every batch with its result or its error.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createBatchStore, type WriteBatch } from './write-batch.js';

const { file } = workerData as { file: string };
const sqlite = new Database(file);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('busy_timeout = 5000');
// the open end of every series' clustered range is hot: keep those pages in this connection's cache
sqlite.pragma('cache_size = -65536');
const store = createBatchStore(sqlite);

parentPort!.on('message', (batch: WriteBatch | 'close') => {
  if (batch === 'close') {
    sqlite.close();
    parentPort!.close();
    return;
  }
  try {
    const result = store.write(batch);
    parentPort!.postMessage({ ok: true, result }, [result.duplicates.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort!.postMessage({ ok: false, id: batch.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
