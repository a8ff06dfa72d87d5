// The engine's write queue against a real SQLite file with a second connection holding the write lock, as the
// telemetry writer thread does while it commits a batch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../platform/testing/until.js';
import { createWriteQueue } from './write-queue.js';

describe('rule engine write queue', () => {
  let dir: string;
  let main: Database.Database;
  let writer: Database.Database;
  const rows = () => main.prepare('SELECT v FROM t ORDER BY rowid').pluck().all();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-wq-'));
    main = new Database(path.join(dir, 'db'));
    main.pragma('journal_mode = WAL');
    main.pragma('busy_timeout = 5000');
    main.exec('CREATE TABLE t (v INTEGER NOT NULL CHECK (v >= 0))');
    writer = new Database(path.join(dir, 'db'));
  });
  afterEach(() => {
    main.close();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const queueOf = () => {
    const insert = main.prepare('INSERT INTO t (v) VALUES (?)');
    const q = createWriteQueue({ sqlite: main, transact: (fn) => main.transaction(fn).immediate(), retryMs: 1 });
    return { q, add: (v: number) => q.run(() => void insert.run(v)) };
  };

  it('writes at once when the lock is free', () => {
    const { q, add } = queueOf();
    add(1);
    expect(rows()).toEqual([1]);
    expect(q.metrics()).toMatchObject({ writes: 1, queued: 0, pending: 0 });
  });

  it('queues without waiting while another connection holds the write lock, then writes in order in one go', async () => {
    const { q, add } = queueOf();
    writer.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    add(1);
    add(2);
    add(3);
    // the caller never waited for the lock (busy timeout 5 s on this connection; a starved machine may take a while)
    expect(performance.now() - started).toBeLessThan(2500);
    expect(q.metrics()).toMatchObject({ queued: 3, pending: 3 });
    expect(rows()).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    expect(q.metrics().pending).toBe(3);
    writer.exec('COMMIT');
    await until(() => q.metrics().pending === 0);
    expect(rows()).toEqual([1, 2, 3]);
    expect(main.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('a job that cannot be written is dropped alone; the others of its turn are written', async () => {
    const { q, add } = queueOf();
    writer.exec('BEGIN IMMEDIATE');
    add(1);
    add(-1); // refused by the CHECK
    add(2);
    writer.exec('COMMIT');
    await until(() => q.metrics().pending === 0);
    expect(rows()).toEqual([1, 2]);
    expect(q.metrics().failed).toBe(1);
  });

  it('does not join a transaction of the asynchronous store open on its own connection: it writes after it', async () => {
    const { q, add } = queueOf();
    // a store transaction between two of its awaits (platform/db/store.ts), rolled back in the end
    main.exec('BEGIN IMMEDIATE');
    add(1);
    expect(q.metrics()).toMatchObject({ queued: 1, pending: 1 });
    main.exec('ROLLBACK');
    await until(() => q.metrics().pending === 0);
    expect(rows()).toEqual([1]);
  });

  it('flush writes what is queued, waiting for the lock', () => {
    const { q, add } = queueOf();
    writer.exec('BEGIN IMMEDIATE');
    add(1);
    writer.exec('COMMIT');
    q.flush();
    expect(rows()).toEqual([1]);
  });
});
