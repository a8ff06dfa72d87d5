// Writes of the event loop on SQLite without holding it while another connection holds the write lock.
//
// SQLite has one writer at a time. The telemetry writer thread holds the lock for each batch it commits (tens of ms
// under load, longer on a slow disk); a write of the event loop that waited for it in SQLite's busy handler would hold
// every MQTT acknowledgement, HTTP call and socket.io push with it. So a write is tried with busy timeout 0, again every
// LOCK_RETRY_MS while the lock is held (the event loop turns meanwhile), and waits for it in the busy handler only once
// LOCK_WAIT_MS have passed, so that nothing is held back for long. SQLite takes the lock before a statement (or a
// BEGIN IMMEDIATE) changes anything: a try answered busy did nothing, and is simply made again. A write that has waited
// LOCK_GATE_AFTER_MS raises the connection's write gate (`shareWriteGate`): the writer thread reads it before each
// transaction and lets the waiting write have the lock first, so that back-to-back batches never starve it. Not at
// once: while the gate is up the writer waits for the event loop's next try, which comes late on a saturated machine
// (raised at the first busy answer, the bench's QoS 1 p99 at 150,000 points/s was 1.2–2× longer on such a machine).
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type Database from 'better-sqlite3';

export const LOCK_RETRY_MS = 2;
export const LOCK_WAIT_MS = 500;
/** a write waiting this long raises the writer thread's gate */
export const LOCK_GATE_AFTER_MS = 50;

export const BUSY = Symbol('busy');

const gates = new WeakMap<Database.Database, Int32Array>();

/**
 * The counter (shared memory) that a writer on another thread reads before each transaction, deferring it while the
 * counter is up: raised by this connection's writes while they run (telemetry's announceWrites) and once they have
 * waited LOCK_GATE_AFTER_MS for the lock.
 */
export function shareWriteGate(sqlite: Database.Database, gate: Int32Array): void {
  gates.set(sqlite, gate);
}

/** SQLite's answer when the lock is held and the busy timeout ran out (or was 0) */
export const isBusy = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code ?? (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
};

export interface LockTries {
  /** `attempt` once, without waiting for another connection's write lock: its value, or BUSY when the lock is held */
  unwaited<T>(attempt: () => T): T | typeof BUSY;
  /**
   * `attempt` without the event loop waiting for the lock while it can help it. Before each try, while `held` answers
   * a promise (the caller's own transaction under way), that is awaited; the try follows the check in the same turn.
   */
  unblocked<T>(attempt: () => T, held?: () => Promise<void> | null): Promise<T>;
}

export function lockTries(sqlite: Database.Database): LockTries {
  // the connection's busy timeout is set to 0 around a try and put back after (statements prepared once per value)
  const readTimeout = sqlite.prepare('PRAGMA busy_timeout').pluck();
  const setters = new Map<number, Database.Statement>();
  const setBusyTimeout = (ms: number) => {
    let stmt = setters.get(ms);
    if (!stmt) setters.set(ms, (stmt = sqlite.prepare(`PRAGMA busy_timeout = ${ms}`)));
    stmt.get();
  };
  function unwaited<T>(attempt: () => T): T | typeof BUSY {
    const timeout = Number(readTimeout.get()) || 0;
    setBusyTimeout(0);
    try {
      return attempt();
    } catch (err) {
      if (isBusy(err)) return BUSY;
      throw err;
    } finally {
      setBusyTimeout(timeout);
    }
  }
  return {
    unwaited,
    async unblocked(attempt, held) {
      const since = performance.now();
      let gate: Int32Array | undefined;
      try {
        for (;;) {
          for (let p = held?.(); p; p = held!()) await p;
          if (performance.now() - since >= LOCK_WAIT_MS) return attempt();
          const r = unwaited(attempt);
          if (r !== BUSY) return r;
          // waiting long: the writer thread lets this write go first after its batch in flight (not at once: while
          // the gate is up the writer waits for this turn of the event loop, which lags on a saturated machine)
          if (!gate && performance.now() - since >= LOCK_GATE_AFTER_MS && (gate = gates.get(sqlite)))
            Atomics.add(gate, 0, 1);
          await delay(LOCK_RETRY_MS);
        }
      } finally {
        if (gate) {
          Atomics.sub(gate, 0, 1);
          Atomics.notify(gate, 0);
        }
      }
    },
  };
}
