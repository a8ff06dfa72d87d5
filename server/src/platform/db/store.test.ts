// The store's engines against each other: the same drizzle query code and hand-written statements give the same
// answers on SQLite and on a real PostgreSQL, and transactions commit, roll back and keep other flows out alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { count, eq, like, sql, sum } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type PostgresHandle } from './postgres.js';
import { LOCK_WAIT_MS } from './sqlite-lock.js';
import { postgresStore, sqliteStore, translateToPostgres, type Store } from './store.js';
import { hasPostgres, testDatabase } from './testing/postgres.js';

const probe = sqliteTable('store_probe', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  n: integer('n'),
  flag: integer('flag', { mode: 'boolean' }).notNull().default(false),
});
const schema = { probe };
type S = Store<typeof schema>;

describe('translateToPostgres', () => {
  it('numbers the placeholders and leaves literals and quoted names alone', () => {
    expect(translateToPostgres(`select "a?" from t where x = ? and y = '?''?' and z = ?`)).toBe(
      `select "a?" from t where x = $1 and y = '?''?' and z = $2`,
    );
  });
  it("turns SQLite's case-blind LIKE, ifnull and its casts into PostgreSQL's", () => {
    expect(
      translateToPostgres(`select ifnull(a, 0), cast(b as real), cast(c AS INTEGER) from t where "like" LIKE ?`),
    ).toBe(`select coalesce(a, 0), cast(b as double precision), cast(c AS bigint) from t where "like" ilike $1`);
    // a column named like a keyword is not a keyword
    expect(translateToPostgres('select t.like_count, unlike from t')).toBe('select t.like_count, unlike from t');
    expect(translateToPostgres('insert into "t" ("a") values (?) on conflict ("t"."a") do update set "b" = ?')).toBe(
      'insert into "t" ("a") values ($1) on conflict ("a") do update set "b" = $2',
    );
  });
});

function contract(name: string, open: () => Promise<{ store: S; close(): Promise<void> }>) {
  describe(name, () => {
    let store: S;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(() => close());

    it('inserts without an id, reads back with the builder, counts and sums as numbers', async () => {
      const [a] = await store.db.insert(probe).values({ name: 'Panel Listrik', n: 2 }).returning({ id: probe.id });
      const [b] = await store.db.insert(probe).values({ name: 'pompa', n: 3, flag: true }).returning({ id: probe.id });
      expect(b!.id).toBeGreaterThan(a!.id);
      const row = await store.db.select().from(probe).where(eq(probe.id, b!.id)).get();
      expect(row).toEqual({ id: b!.id, name: 'pompa', n: 3, flag: true });
      expect(await store.db.select().from(probe).where(eq(probe.id, -1)).get()).toBeUndefined();
      const [{ total, n }] = (await store.db.select({ total: count(), n: sum(probe.n) }).from(probe)) as any;
      expect(total).toBe(2);
      expect(Number(n)).toBe(5);
    });

    it('upserts on a unique column with drizzle onConflictDoUpdate', async () => {
      const [row] = await store.db.insert(probe).values({ name: 'upsert', n: 1 }).returning({ id: probe.id });
      await store.db
        .insert(probe)
        .values({ id: row!.id, name: 'upsert', n: 7 })
        .onConflictDoUpdate({ target: probe.id, set: { n: sql`excluded.n` } });
      expect((await store.db.select({ n: probe.n }).from(probe).where(eq(probe.id, row!.id)).get())?.n).toBe(7);
      await store.db.delete(probe).where(eq(probe.id, row!.id));
    });

    it('matches LIKE without regard to case, as SQLite does', async () => {
      const found = await store.db.select({ name: probe.name }).from(probe).where(like(probe.name, '%LISTRIK%'));
      expect(found).toEqual([{ name: 'Panel Listrik' }]);
    });

    it('runs hand-written statements: rows as objects, one, changes', async () => {
      const rows = await store.rows<{ name: string; n: number }>(
        sql`select name, n from store_probe where n >= ${2} order by n`,
      );
      expect(rows).toEqual([
        { name: 'Panel Listrik', n: 2 },
        { name: 'pompa', n: 3 },
      ]);
      expect(await store.one<{ m: number }>(sql`select max(n) as m from store_probe`)).toEqual({ m: 3 });
      expect((await store.exec(sql`update store_probe set n = n + 1 where n >= ${2}`)).changes).toBe(2);
    });

    it('commits a transaction, and rolls all of it back when it throws', async () => {
      await store.tx(async () => {
        await store.db.insert(probe).values({ name: 'kept' });
        await store.tx(async () => store.db.insert(probe).values({ name: 'kept too' }));
      });
      await expect(
        store.tx(async () => {
          await store.db.insert(probe).values({ name: 'gone' });
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      const names = (await store.db.select({ name: probe.name }).from(probe)).map((r) => r.name);
      expect(names).toContain('kept');
      expect(names).toContain('kept too');
      expect(names).not.toContain('gone');
    });

    it("keeps another flow's queries out of an open transaction", async () => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const inside = store.tx(async () => {
        await store.db.insert(probe).values({ name: 'uncommitted' });
        await held;
        throw new Error('rolled back');
      });
      await new Promise((r) => setTimeout(r, 20));
      // started now (a builder runs when awaited; all() runs at once), answered only after the transaction's end
      const outside = store.db.select({ name: probe.name }).from(probe).where(eq(probe.name, 'uncommitted')).all();
      release();
      await expect(inside).rejects.toThrow('rolled back');
      expect(await outside).toEqual([]);
    });

    it("refuses drizzle's own transaction (it would not hold one connection)", async () => {
      const err = await store.db.transaction(async (tx) => tx.select().from(probe)).catch((e: Error) => e);
      expect((err as Error & { cause?: Error }).cause?.message).toContain('store.tx');
    });
  });
}

contract('the store on SQLite', async () => {
  const sqlite = new Database(':memory:');
  sqlite.exec(
    'create table store_probe (id integer primary key autoincrement, name text not null, n integer, flag integer not null default 0)',
  );
  return { store: sqliteStore(sqlite, schema), close: async () => void sqlite.close() };
});

describe('writes on SQLite while another connection holds the write lock', () => {
  let dir: string;
  let main: Database.Database;
  let other: Database.Database;
  let store: S;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sentra-lock-'));
    const file = join(dir, 'db.sqlite');
    main = new Database(file);
    main.pragma('journal_mode = WAL');
    main.pragma('busy_timeout = 5000');
    main.exec(
      'create table store_probe (id integer primary key autoincrement, name text not null, n integer, flag integer not null default 0)',
    );
    other = new Database(file);
    store = sqliteStore(main, schema);
  });
  afterAll(() => {
    other.close();
    main.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * `write` started while the telemetry writer's stand-in (another connection) is inside a write transaction that it
   * commits after `holdMs`: how many times a 5 ms timer fired meanwhile, and the write's answer
   */
  async function whileLocked<T>(write: () => Promise<T>, holdMs = 150) {
    other.exec('begin immediate');
    other.prepare("insert into store_probe (name) values ('batch')").run();
    const ticks: number[] = [];
    const ticker = setInterval(() => ticks.push(performance.now()), 5);
    const t0 = performance.now();
    try {
      const written = write();
      await new Promise((r) => setTimeout(r, holdMs));
      other.exec('commit');
      const value = await written;
      return { value, ticks: ticks.filter((t) => t - t0 < holdMs).length };
    } finally {
      clearInterval(ticker);
      if (other.inTransaction) other.exec('rollback');
    }
  }
  const names = () => main.prepare('select name from store_probe order by id').pluck().all();

  // a write that waited in SQLite's busy handler would hold the event loop the whole 150 ms: no tick at all
  it('a transaction: the event loop keeps turning, and it commits once the lock is free', async () => {
    main.exec('delete from store_probe');
    const r = await whileLocked(() =>
      store.tx(async () => {
        await store.exec(sql`insert into store_probe (name) values ('hadir')`);
        return store.one<{ n: number }>(sql`select count(*) as n from store_probe`);
      }),
    );
    expect(r.ticks).toBeGreaterThan(10);
    expect(r.value?.n).toBe(2); // it began after the other's commit: it sees that batch
    expect(names()).toEqual(['batch', 'hadir']);
  });

  it('a statement that writes on its own, and one that writes and returns rows', async () => {
    main.exec('delete from store_probe');
    const plain = await whileLocked(() => store.exec(sql`insert into store_probe (name) values ('satu')`));
    expect(plain.ticks).toBeGreaterThan(10);
    expect(plain.value.changes).toBe(1);
    const returning = await whileLocked(() => store.db.insert(probe).values({ name: 'dua' }).returning());
    expect(returning.ticks).toBeGreaterThan(10);
    expect(returning.value.map((r) => r.name)).toEqual(['dua']);
    expect(names()).toEqual(['batch', 'satu', 'batch', 'dua']);
  });

  it('reads answer at once (WAL: they never wait for the lock), and the busy timeout is put back', async () => {
    main.exec('delete from store_probe');
    const r = await whileLocked(async () => {
      const t0 = performance.now();
      const rows = await store.rows<{ name: string }>(sql`select name from store_probe`);
      return { rows, ms: performance.now() - t0 };
    });
    expect(r.value.rows).toEqual([]); // the other's batch is not committed yet
    expect(r.value.ms).toBeLessThan(50);
    expect(main.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('tryTx answers busy without running its body', async () => {
    let ran = false;
    const r = await whileLocked(() => store.tryTx(async () => (ran = true)), 20);
    expect(r.value).toEqual({ busy: true });
    expect(ran).toBe(false);
  });

  it('waits for the lock (the busy handler) once LOCK_WAIT_MS have passed, so a write is not held back for ever', async () => {
    main.exec('delete from store_probe');
    // the lock held by another thread this time (waiting in the busy handler holds this one's event loop)
    const holdMs = LOCK_WAIT_MS + 300;
    const holder = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const db = new (require('better-sqlite3'))(workerData.file);
       db.exec('begin immediate');
       db.prepare("insert into store_probe (name) values ('batch')").run();
       parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
       db.exec('commit');
       db.close();`,
      { eval: true, workerData: { file: join(dir, 'db.sqlite'), holdMs } },
    );
    await once(holder, 'message');
    const ticks: number[] = [];
    const ticker = setInterval(() => ticks.push(performance.now()), 5);
    const t0 = performance.now();
    const r = await store.exec(sql`insert into store_probe (name) values ('akhirnya')`);
    const ms = performance.now() - t0;
    clearInterval(ticker);
    await once(holder, 'exit');
    expect(r.changes).toBe(1);
    expect(names()).toEqual(['batch', 'akhirnya']);
    expect(ms).toBeGreaterThan(holdMs - 100);
    // tried without waiting until LOCK_WAIT_MS (the timer fired), then held in the busy handler until the commit
    const before = ticks.filter((t) => t - t0 < LOCK_WAIT_MS).length;
    expect(before).toBeGreaterThan(LOCK_WAIT_MS / 5 / 3);
    expect(ticks.filter((t) => t - t0 > LOCK_WAIT_MS + 50 && t - t0 < holdMs - 50)).toEqual([]);
  });
});

describe.skipIf(!hasPostgres)('PostgreSQL', () => {
  contract('the store on PostgreSQL', async () => {
    const pg: PostgresHandle = await openPostgres({ url: await testDatabase() });
    await pg.pool.query(`
      create table store_probe (id bigserial primary key, name text not null, n bigint, flag bigint not null default 0);
      create function store_probe_id() returns trigger language plpgsql as $$
        begin if new.id is null then new.id := nextval('store_probe_id_seq'); end if; return new; end $$;
      create trigger store_probe_id before insert on store_probe for each row execute function store_probe_id();`);
    return { store: postgresStore(pg.pool, schema), close: () => pg.close() };
  });
});
