// The rule engine's writes (rule states, a firing's task and messages), in the order the engine made them, on either
// engine. Each write is a job (state-store.ts, tasks.service.ts `fire`: store queries, awaited); jobs run inside one
// store transaction, several queued jobs as one transaction (group commit). The engine's state in memory has already
// moved on, so evaluation never waits for a write; only the rows (and the task push, sent after the commit) come
// later. docs/decisions/rules.md "Writes" says which property holds on which engine and why:
//
// - SQLite: the telemetry writer thread holds the database's write lock for each batch it commits; a write on the
//   event loop that meets it would wait in SQLite's busy handler, and the whole gateway (MQTT acknowledgements, HTTP,
//   socket.io) with it: up to ~100 ms per firing under a 66,000 points/s ingest. So a write is tried at once without
//   waiting (`store.tryTx`: busy timeout 0; a store transaction already open on the connection is not joined, it
//   counts as busy); if the lock is taken it is queued and the queue retried every `retryMs`. A queue that could not
//   be written for `blockAfterMs`, or that grows past `maxQueued`, is written waiting for the lock, so nothing is held
//   for long.
// - PostgreSQL: no database-wide lock to meet; the jobs are simply awaited transactions, one at a time, in order, the
//   ones queued meanwhile committed together. A storage fault (the server unreachable, restarting, out of disk) keeps
//   the jobs queued and retries them every `faultRetryMs`; past `maxQueued` jobs, new ones are dropped and logged (the
//   engine's memory keeps the state; the next phase change writes it again).
//
// A job that fails for another reason is retried alone so the others of its group are still written, then logged
// and dropped. `flush()` writes what is queued (close; tests).
import { performance } from 'node:perf_hooks';
import type { AppStore } from '../../db.js';
import { isStorageFault } from '../../platform/db/storage-fault.js';
import type { Logger } from '../../platform/log.js';
import type { WriteJob } from './engine.js';

export type { WriteJob };

export interface WriteQueueOptions {
  store: Pick<AppStore, 'kind' | 'tx' | 'tryTx'>;
  /** after a transaction of jobs committed (the tasks' pushes are published) */
  committed?: () => void;
  /** after a transaction of jobs rolled back (the tasks' pushes of it are dropped) */
  rolledBack?: () => void;
  log?: Logger;
  retryMs?: number;
  blockAfterMs?: number;
  maxQueued?: number;
  faultRetryMs?: number;
  /** jobs per transaction at most */
  maxBatch?: number;
}

type Outcome = 'done' | 'busy' | 'fault' | 'failed';

export function createWriteQueue({
  store,
  committed,
  rolledBack,
  log,
  retryMs = 1,
  blockAfterMs = 250,
  maxQueued = 10_000,
  faultRetryMs = 1_000,
  maxBatch = 1_000,
}: WriteQueueOptions) {
  const sqlite = store.kind === 'sqlite';
  let queue: Array<{ job: WriteJob; at: number; waited?: boolean }> = [];
  /** the drain under way (one at a time: the jobs keep their order) */
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let closing = false;
  /** jobs queued and jobs done (written, or failed and dropped) since the start: `written()` waits on them */
  let queuedCount = 0;
  let doneCount = 0;
  let waiters: Array<{ upTo: number; resolve: () => void }> = [];
  const m = {
    writes: 0,
    queued: 0,
    retries: 0,
    blocking: 0,
    failed: 0,
    faults: 0,
    dropped: 0,
    max_delay_ms: 0,
    max_queue: 0,
  };

  /** one transaction of `jobs`: done, busy (SQLite: nothing written), fault (storage: retry) or failed (rolled back) */
  async function attempt(jobs: readonly WriteJob[], wait: boolean): Promise<Outcome> {
    const body = async () => {
      for (const j of jobs) await j();
    };
    try {
      if (wait) await store.tx(body);
      else if ((await store.tryTx(body)).busy) return 'busy';
      committed?.();
      return 'done';
    } catch (err) {
      rolledBack?.();
      if (isStorageFault(err)) {
        m.faults++;
        if (m.faults === 1 || m.faults % 100 === 0) log?.error('rule engine: writes held back by the storage', err);
        return 'fault';
      }
      if (jobs.length === 1) {
        m.failed++;
        log?.error('rule engine: a state or task write failed', err);
      }
      return 'failed';
    }
  }

  function written(batch: ReadonlyArray<{ at: number }>) {
    const t = performance.now();
    for (const e of batch) if (t - e.at > m.max_delay_ms) m.max_delay_ms = Math.round((t - e.at) * 10) / 10;
    m.writes += batch.length;
    doneCount += batch.length;
    if (waiters.length) {
      const still = [];
      for (const x of waiters)
        if (x.upTo <= doneCount) x.resolve();
        else still.push(x);
      waiters = still;
    }
  }

  /** writes the queue in order; answers when the rest must wait: 'busy' (SQLite's lock), 'fault', or 'empty' */
  async function drain(): Promise<'busy' | 'fault' | 'empty'> {
    while (queue.length) {
      // SQLite: wait for the lock once the queue is old or long (or at close); PostgreSQL always waits its turn
      const wait = !sqlite || closing || performance.now() - queue[0]!.at >= blockAfterMs || queue.length > maxQueued;
      if (wait && sqlite) m.blocking++;
      const batch = queue.slice(0, maxBatch);
      const r = await attempt(
        batch.map((e) => e.job),
        wait,
      );
      if (r === 'busy' || r === 'fault') return r;
      queue = queue.slice(batch.length);
      if (r === 'failed' && batch.length > 1) {
        // one of them cannot be written: each alone, so the others still are (the bad one is logged and dropped)
        for (let i = 0; i < batch.length; i++) {
          const one = await attempt([batch[i]!.job], wait);
          if (one === 'busy' || one === 'fault') {
            queue = batch.slice(i).concat(queue);
            return one;
          }
        }
      }
      written(batch);
    }
    return 'empty';
  }

  let last: 'busy' | 'fault' | 'empty' = 'empty';
  function start() {
    if (running || timer) return;
    running = drain()
      .catch((err) => {
        log?.error('rule engine: write queue stopped', err);
        return 'fault' as const;
      })
      .then((r) => {
        running = null;
        last = r;
        if (r === 'empty') return;
        // `queued`: the jobs that had to wait for a retry (the lock, or the storage)
        for (const e of queue)
          if (!e.waited) {
            e.waited = true;
            m.queued++;
          }
        if (closing) return;
        m.retries++;
        timer = setTimeout(
          () => {
            timer = undefined;
            start();
          },
          r === 'busy' ? retryMs : faultRetryMs,
        );
      });
  }

  return {
    /** writes `job` in its turn: at once when nothing is queued (SQLite: if the lock is free), else after the others */
    run(job: WriteJob): void {
      if (queue.length >= maxQueued && !sqlite) {
        m.dropped++;
        if (m.dropped === 1 || m.dropped % 100 === 0)
          log?.error(`rule engine: ${m.dropped} writes dropped, ${queue.length} queued (storage unavailable)`);
        return;
      }
      queue.push({ job, at: performance.now() });
      queuedCount++;
      if (queue.length > m.max_queue) m.max_queue = queue.length;
      start();
    },
    /** resolves once everything queued before the call is written (or its storage keeps failing): close, tests */
    async flush(): Promise<void> {
      closing = true;
      try {
        if (running) await running;
        while (queue.length) {
          clearTimeout(timer);
          timer = undefined;
          start();
          await running;
          if (last === 'fault') break;
        }
      } finally {
        closing = false;
        // what a storage fault held back is retried as before
        if (queue.length && !running && !timer) start();
      }
    },
    /** resolves when nothing is queued or under way (scale-out: a device's next message waits for its writes) */
    async settled(): Promise<void> {
      while (running || timer || queue.length) {
        if (running) await running;
        else await new Promise((r) => setTimeout(r, retryMs));
      }
    },
    /**
     * resolves once every job queued before the call is written (or failed and dropped); a storage fault keeps it
     * waiting (gateways storing locally hold a device's acknowledgement on it: rules.module.ts)
     */
    written(): Promise<void> {
      if (doneCount >= queuedCount) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ upTo: queuedCount, resolve }));
    },
    metrics: () => ({ ...m, pending: queue.length }),
  };
}

export type WriteQueue = ReturnType<typeof createWriteQueue>;
