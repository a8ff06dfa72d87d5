// Where a batch is written: on a worker thread with its own connection (a database file: the main thread keeps its
// event loop for MQTT, HTTP and socket.io), or inline on the main connection (an in-memory database cannot be shared).
// A crashed worker fails its batch (the writer retries it) and a new one starts for the next batch. Beside it, a
// checkpoint thread copies the WAL into the database file, so no batch's commit runs a checkpoint (10–30 ms in one).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Logger } from '../../platform/log.js';
import { workerEntry } from '../../platform/worker-entry.js';
import { createBatchStore, type WriteBatch, type WriteResult } from './write-batch.js';

export type WriteDone = (err: Error | null, result?: WriteResult) => void;

export interface CheckpointStats {
  /** passive checkpoints run, and WAL frames they copied into the database file */
  wal_checkpoints: number;
  wal_checkpointed_frames: number;
  wal_checkpoint_failures: number;
}

export interface BatchExecutor {
  readonly threaded: boolean;
  /** with a checkpoint thread: what it did */
  readonly checkpoints?: CheckpointStats;
  /** writes one batch; `done` is called once (synchronously when inline) */
  submit(batch: WriteBatch, done: WriteDone): void;
  close(): Promise<void>;
}

export function inlineExecutor(sqlite: Database.Database): BatchExecutor {
  const store = createBatchStore(sqlite);
  return {
    threaded: false,
    submit(batch, done) {
      let result: WriteResult;
      try {
        result = store.write(batch);
      } catch (err) {
        return done(err instanceof Error ? err : new Error(String(err)));
      }
      done(null, result);
    },
    close: async () => {},
  };
}

/**
 * Marks the event loop's writes on `sqlite` in `gate` (a shared counter the writer thread reads before each
 * transaction): every writing statement prepared from now on raises it while it runs, and it drops once the current
 * synchronous work (an enclosing transaction included) is over. Readers are left alone.
 */
export function announceWrites(sqlite: Database.Database, gate: Int32Array): void {
  const prepare = sqlite.prepare.bind(sqlite) as Database.Database['prepare'];
  const lower = () => {
    Atomics.sub(gate, 0, 1);
    Atomics.notify(gate, 0);
  };
  sqlite.prepare = ((source: string) => {
    const stmt = prepare(source);
    if (stmt.reader === false || /^\s*(INSERT|UPDATE|DELETE|REPLACE)/i.test(source)) {
      for (const method of ['run', 'get', 'all', 'iterate'] as const) {
        const original = (stmt as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!.bind(stmt);
        (stmt as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
          Atomics.add(gate, 0, 1);
          queueMicrotask(lower);
          return original(...args);
        };
      }
    }
    return stmt;
  }) as Database.Database['prepare'];
}

/** how often the checkpoint thread copies the WAL (at 60,000 points/s the WAL gains a few thousand pages a second) */
export const CHECKPOINT_EVERY_MS = 500;

/**
 * The checkpoint thread: a connection of its own runs PASSIVE checkpoints (they neither wait for nor block the writer;
 * a frame the writer is still adding is copied the next time) and reports each. The writer's connection and the event
 * loop's turn their automatic checkpoints off, so a commit never copies the WAL. Small enough to be code, not a file.
 */
const CHECKPOINT_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const run = () => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ frames: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
};
setInterval(run, workerData.everyMs);
parentPort.on('message', (m) => { if (m === 'close') { run(); db.close(); process.exit(0); } });
`;

export function threadExecutor(file: string, log: Logger, gate?: Int32Array, checkpointEveryMs = CHECKPOINT_EVERY_MS): BatchExecutor {
  const entry = workerEntry(import.meta.url, 'writer.worker');
  let worker: Worker | null = null;
  const inFlight = new Map<number, WriteDone>();

  function failAll(err: Error) {
    const pending = [...inFlight.values()];
    inFlight.clear();
    for (const done of pending) done(err);
  }

  function start(): Worker {
    const w = new Worker(entry.script, { workerData: { file, gate }, eval: entry.eval });
    w.unref(); // an open writer never keeps a process alive; close() drains it
    w.on('message', (m: { ok: true; result: WriteResult } | { ok: false; id: number; error: string }) => {
      const id = m.ok ? m.result.id : m.id;
      const done = inFlight.get(id);
      inFlight.delete(id);
      if (!done) return;
      if (m.ok) done(null, m.result);
      else done(new Error(m.error));
    });
    // a thread that failed or exited takes its batches with it (only the current thread has any)
    w.on('error', (err) => {
      log.error('telemetry writer thread failed', err);
      if (worker !== w) return;
      worker = null;
      failAll(err);
    });
    w.on('exit', (code) => {
      if (worker !== w) return;
      worker = null;
      failAll(new Error(`telemetry writer thread exited (${code})`));
    });
    return w;
  }

  // started now, not at the first batch: loading the thread (and opening its connection) takes from tens of ms to a
  // second, and a fleet's first messages would queue behind it
  worker = start();

  const checkpoints: CheckpointStats = { wal_checkpoints: 0, wal_checkpointed_frames: 0, wal_checkpoint_failures: 0 };
  let checkpointer: Worker | null = null;
  let closing = false;
  function startCheckpointer(): Worker {
    const c = new Worker(CHECKPOINT_THREAD, { eval: true, workerData: { file, everyMs: checkpointEveryMs, sqlite: createRequire(import.meta.url).resolve('better-sqlite3') } });
    c.unref();
    c.on('message', (m: { frames?: number; error?: string }) => {
      if (m.error !== undefined) {
        checkpoints.wal_checkpoint_failures++;
        return log.warn(`WAL checkpoint failed: ${m.error}`);
      }
      checkpoints.wal_checkpoints++;
      if (m.frames && m.frames > 0) checkpoints.wal_checkpointed_frames += m.frames;
    });
    c.on('error', (err) => log.error('WAL checkpoint thread failed', err));
    // without it the WAL would only grow: a new one takes over (after a pause, should it keep failing at start)
    c.on('exit', () => {
      if (closing || checkpointer !== c) return;
      setTimeout(() => {
        if (!closing) checkpointer = startCheckpointer();
      }, 1000).unref();
    });
    return c;
  }
  checkpointer = startCheckpointer();
  return {
    threaded: true,
    checkpoints,
    submit(batch, done) {
      worker ??= start();
      inFlight.set(batch.id, done);
      const transfer = [batch.series.buffer, batch.ts.buffer, batch.num.buffer, batch.hasNum.buffer, batch.textAt.buffer] as ArrayBuffer[];
      if (batch.rollups) transfer.push(batch.rollups.minute.buffer as ArrayBuffer, batch.rollups.hour.buffer as ArrayBuffer);
      if (batch.compact) transfer.push(...([batch.compact.series, batch.compact.ts, batch.compact.num, batch.compact.hasNum, batch.compact.textAt].map((a) => a.buffer) as ArrayBuffer[]));
      worker.postMessage(batch, transfer);
    },
    async close() {
      closing = true;
      const c = checkpointer;
      checkpointer = null;
      // a last checkpoint, then it exits (one that already died has nothing to finish)
      if (c && c.threadId !== -1) {
        const gone = new Promise<void>((resolve) => c.once('exit', () => resolve()));
        c.postMessage('close');
        await Promise.race([gone, new Promise((r) => setTimeout(r, 5000).unref())]);
        await c.terminate();
      }
      const w = worker;
      worker = null;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      w.postMessage('close');
      const timer = setTimeout(() => void w.terminate(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
