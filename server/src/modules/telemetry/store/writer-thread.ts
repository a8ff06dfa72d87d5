// Where a batch is written: on a worker thread with its own connection (a database file: the main thread keeps its
// event loop for MQTT, HTTP and socket.io), or inline on the main connection (an in-memory database cannot be shared).
// A crashed worker fails its batch (the writer retries it) and a new one starts for the next batch. Beside it, a
// checkpoint thread copies the WAL into the database file, so no batch's commit runs a checkpoint (10–30 ms in one),
// and asks the writer thread now and then to finish one itself, so that the WAL starts over instead of growing.
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { shareWriteGate } from '../../../platform/db/sqlite-lock.js';
import type { Logger } from '../../../platform/log.js';
import { workerEntry } from '../../../platform/worker-entry.js';
import type { CheckpointReport, CheckpointThreadData } from './checkpoint.worker.js';
import { createBatchStore, type WriteBatch, type WriteResult } from './write-batch.js';

export type WriteDone = (err: Error | null, result?: WriteResult) => void;

/** what the writer thread posts: a batch's result or error, or a checkpoint it finished (writer.worker.ts) */
export type WriterAnswer =
  | { ok: true; result: WriteResult }
  | { ok: false; id: number; error: string; code?: string }
  | { walCheckpoint: { ms: number; caughtUp: boolean } };

export interface CheckpointStats {
  /** passive checkpoints run, and WAL frames they copied into the database file */
  wal_checkpoints: number;
  wal_checkpointed_frames: number;
  wal_checkpoint_failures: number;
  /** the most frames the WAL held at a checkpoint */
  wal_max_frames: number;
  /** times the WAL started over (a checkpoint found it shorter than the one before) */
  wal_restarts: number;
  /** checkpoints the writer thread ran when asked (each lets its next commit start the WAL over), the longest (ms), and
   * those that could not copy every frame (a reader held an older snapshot) */
  wal_writer_checkpoints: number;
  wal_writer_checkpoint_max_ms: number;
  wal_writer_checkpoint_misses: number;
}

export interface ThreadExecutorOptions {
  /** the event loop's write gate (announceWrites) */
  gate?: Int32Array;
  checkpointEveryMs?: number;
  /** WAL frames past which the writer thread is asked to finish a checkpoint, so the WAL starts over */
  walRestartFrames?: number;
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
  shareWriteGate(sqlite, gate); // and once they have waited for the lock a while (platform/db/sqlite-lock.ts)
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
 * WAL frames (of a 4 KB page each) past which the WAL is made to start over: 256 MB, eight seconds of 66,000 points/s
 * (each time costs the writer a short checkpoint of its own). The file is also cut back to this size when it starts
 * over (journal_size_limit).
 */
export const WAL_RESTART_FRAMES = 65_536;

export function threadExecutor(file: string, log: Logger, opts: ThreadExecutorOptions = {}): BatchExecutor {
  const { gate, checkpointEveryMs = CHECKPOINT_EVERY_MS, walRestartFrames = WAL_RESTART_FRAMES } = opts;
  const entry = workerEntry(import.meta.url, 'writer.worker');
  const checkpointEntry = workerEntry(import.meta.url, 'checkpoint.worker');
  /** [0]: 1 while the writer thread is asked to finish a checkpoint (see checkpoint.worker.ts) */
  const walCtl = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker | null = null;
  const inFlight = new Map<number, WriteDone>();

  function failAll(err: Error) {
    const pending = [...inFlight.values()];
    inFlight.clear();
    for (const done of pending) done(err);
  }

  function start(): Worker {
    const w = new Worker(entry.script, {
      workerData: { file, gate, walCtl, walLimitFrames: walRestartFrames },
      eval: entry.eval,
    });
    w.unref(); // an open writer never keeps a process alive; close() drains it
    w.on('message', (m: WriterAnswer) => {
      if ('walCheckpoint' in m) {
        checkpoints.wal_writer_checkpoints++;
        if (!m.walCheckpoint.caughtUp) checkpoints.wal_writer_checkpoint_misses++;
        checkpoints.wal_writer_checkpoint_max_ms = Math.max(
          checkpoints.wal_writer_checkpoint_max_ms,
          Math.round(m.walCheckpoint.ms * 10) / 10,
        );
        return;
      }
      const id = m.ok ? m.result.id : m.id;
      const done = inFlight.get(id);
      inFlight.delete(id);
      if (!done) return;
      if (m.ok) done(null, m.result);
      // the SQLite error code (SQLITE_FULL, ...) says whether storage is at fault (writer.ts isStorageFault)
      else done(Object.assign(new Error(m.error), { code: m.code }));
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

  const checkpoints: CheckpointStats = {
    wal_checkpoints: 0,
    wal_checkpointed_frames: 0,
    wal_checkpoint_failures: 0,
    wal_max_frames: 0,
    wal_restarts: 0,
    wal_writer_checkpoints: 0,
    wal_writer_checkpoint_max_ms: 0,
    wal_writer_checkpoint_misses: 0,
  };
  let checkpointer: Worker | null = null;
  let closing = false;
  function startCheckpointer(): Worker {
    const workerData: CheckpointThreadData = {
      file,
      everyMs: checkpointEveryMs,
      ctl: walCtl,
      restartFrames: walRestartFrames,
    };
    const c = new Worker(checkpointEntry.script, { eval: checkpointEntry.eval, workerData });
    c.unref();
    let lastLog = 0;
    /** said once per streak of failures (a full disk fails every run, twice a second) */
    let failing = false;
    c.on('message', (m: CheckpointReport) => {
      if ('error' in m) {
        checkpoints.wal_checkpoint_failures++;
        if (!failing) log.warn(`WAL checkpoint failed (said once until one succeeds): ${m.error}`);
        failing = true;
        return;
      }
      if (failing) log.info('WAL checkpoint succeeds again');
      failing = false;
      checkpoints.wal_checkpoints++;
      if (m.frames && m.frames > 0) checkpoints.wal_checkpointed_frames += m.frames;
      if (m.log === undefined) return;
      if (m.log > checkpoints.wal_max_frames) checkpoints.wal_max_frames = m.log;
      if (m.log < lastLog) checkpoints.wal_restarts++;
      lastLog = m.log;
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
      const transfer = [
        batch.series.buffer,
        batch.ts.buffer,
        batch.num.buffer,
        batch.hasNum.buffer,
        batch.textAt.buffer,
      ] as ArrayBuffer[];
      if (batch.rollups)
        transfer.push(batch.rollups.minute.buffer as ArrayBuffer, batch.rollups.hour.buffer as ArrayBuffer);
      if (batch.compact)
        transfer.push(
          ...([
            batch.compact.series,
            batch.compact.ts,
            batch.compact.num,
            batch.compact.hasNum,
            batch.compact.textAt,
          ].map((a) => a.buffer) as ArrayBuffer[]),
        );
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
