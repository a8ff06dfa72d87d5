// The engine's write queue on both engines (order, group commit, a bad job dropped alone, a storage fault retried, the
// commit hooks), and on SQLite against a real file with a second connection holding the write lock, as the telemetry
// writer thread does while it commits a batch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppStore } from '../../db.js';
import { findUp, openDb } from '../../platform/db/sqlite.js';
import { sqliteStore } from '../../platform/db/store.js';
import { until } from '../../platform/testing/until.js';
import * as schema from '../../schema.js';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createWriteQueue } from './write-queue.js';

/** a table whose rows number themselves in the order they were written: n = the rows before it */
async function table(store: AppStore) {
  await store.exec(sql`CREATE TABLE wq_t (n INTEGER NOT NULL, v INTEGER NOT NULL CHECK (v >= 0))`);
  return {
    insert: (v: number) => () =>
      store.exec(sql`INSERT INTO wq_t (n, v) SELECT count(*), ${v} FROM wq_t`).then(() => undefined),
    rows: async () => (await store.rows<{ v: number }>(sql`SELECT v FROM wq_t ORDER BY n`)).map((r) => Number(r.v)),
  };
}

const fault = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });

forEachEngine('rule engine write queue', (open) => {
  let db: OpenedStore;
  beforeEach(async () => {
    db = await open();
  });
  afterEach(() => db.close());

  it('writes in order, the jobs queued meanwhile as one transaction, and publishes after each commit', async () => {
    const t = await table(db.store);
    let commits = 0;
    const q = createWriteQueue({ store: db.store, committed: () => commits++ });
    for (let v = 1; v <= 5; v++) q.run(t.insert(v));
    await q.flush();
    expect(await t.rows()).toEqual([1, 2, 3, 4, 5]);
    expect(q.metrics()).toMatchObject({ writes: 5, pending: 0, failed: 0 });
    // the first alone, the four queued behind it together (PostgreSQL); on SQLite the first is written at once too
    expect(commits).toBeLessThanOrEqual(5);
    expect(commits).toBeGreaterThanOrEqual(2);
  });

  it('a job that cannot be written is rolled back and dropped alone; the others of its group are written', async () => {
    const t = await table(db.store);
    let rolledBack = 0;
    const q = createWriteQueue({ store: db.store, rolledBack: () => rolledBack++ });
    q.run(t.insert(1));
    q.run(t.insert(-1)); // refused by the CHECK
    q.run(t.insert(2));
    await q.flush();
    expect(await t.rows()).toEqual([1, 2]);
    expect(q.metrics().failed).toBe(1);
    expect(rolledBack).toBeGreaterThanOrEqual(1);
  });

  it('a storage fault keeps the jobs queued and retries them, in order: nothing is lost', async () => {
    const t = await table(db.store);
    let faults = 2;
    const q = createWriteQueue({ store: db.store, faultRetryMs: 5 });
    q.run(t.insert(1));
    q.run(async () => {
      if (faults-- > 0) throw fault();
      await t.insert(2)();
    });
    q.run(t.insert(3));
    await until(() => q.metrics().pending === 0 && q.metrics().writes === 3);
    expect(await t.rows()).toEqual([1, 2, 3]);
    expect(q.metrics()).toMatchObject({ faults: 2, failed: 0 });
  });

  it('written() resolves once the jobs queued before it are written, not waiting for later ones; a fault holds it', async () => {
    const t = await table(db.store);
    let faults = 2;
    const q = createWriteQueue({ store: db.store, faultRetryMs: 5 });
    await q.written(); // nothing queued: at once
    q.run(async () => {
      if (faults-- > 0) throw fault();
      await t.insert(1)();
    });
    let done = false;
    const first = q.written().then(() => (done = true));
    await new Promise((r) => setTimeout(r, 2));
    expect(done).toBe(false);
    q.run(t.insert(2));
    await first;
    // what it waited for is written, whatever came after
    expect((await t.rows())[0]).toBe(1);
    await q.written();
    expect(await t.rows()).toEqual([1, 2]);
  });

  it('flush resolves once everything queued is written', async () => {
    const t = await table(db.store);
    const q = createWriteQueue({ store: db.store });
    for (let v = 0; v < 50; v++) q.run(t.insert(v));
    await q.flush();
    expect(await t.rows()).toHaveLength(50);
    await q.settled();
  });
});

describe('rule engine write queue on SQLite: never waits for the write lock', () => {
  let dir: string;
  let handle: ReturnType<typeof openDb<typeof schema>>;
  let store: AppStore;
  let writer: Database.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-wq-'));
    handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    handle.sqlite.pragma('busy_timeout = 5000');
    store = sqliteStore(handle.sqlite, schema);
    writer = new Database(path.join(dir, 'sentra.db'));
  });
  afterEach(() => {
    writer.close();
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes at once when the lock is free', async () => {
    const t = await table(store);
    const q = createWriteQueue({ store });
    q.run(t.insert(1));
    expect(await t.rows()).toEqual([1]);
    expect(q.metrics()).toMatchObject({ writes: 1, queued: 0, pending: 0 });
  });

  it('queues without waiting while another connection holds the write lock, then writes in order in one go', async () => {
    const t = await table(store);
    const q = createWriteQueue({ store, retryMs: 1 });
    writer.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    q.run(t.insert(1));
    q.run(t.insert(2));
    q.run(t.insert(3));
    // it tried, met the lock and will try again
    expect(await until(() => q.metrics().retries > 0)).toBe(true);
    // the event loop never waited for the lock (busy timeout 5 s on this connection; a starved machine may be slow)
    expect(performance.now() - started).toBeLessThan(2500);
    expect(q.metrics()).toMatchObject({ pending: 3 });
    expect(await t.rows()).toEqual([]);
    writer.exec('COMMIT');
    await until(() => q.metrics().pending === 0);
    expect(await t.rows()).toEqual([1, 2, 3]);
    expect(handle.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('does not join a transaction of the store open on its own connection: it writes after it', async () => {
    const t = await table(store);
    const q = createWriteQueue({ store, retryMs: 1 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // a store transaction between two of its awaits, rolled back in the end
    const tx = store
      .tx(async () => {
        await t.insert(7)();
        q.run(t.insert(1));
        await held;
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    // it tried, found the transaction open (busy) and will try again
    expect(await until(() => q.metrics().retries > 0)).toBe(true);
    expect(q.metrics()).toMatchObject({ pending: 1 });
    release();
    await tx;
    await until(() => q.metrics().pending === 0);
    expect(await t.rows()).toEqual([1]);
  });

  it('flush writes what is queued, waiting for the lock', async () => {
    const t = await table(store);
    const q = createWriteQueue({ store });
    writer.exec('BEGIN IMMEDIATE');
    q.run(t.insert(1));
    writer.exec('COMMIT');
    await q.flush();
    expect(await t.rows()).toEqual([1]);
  });
});
