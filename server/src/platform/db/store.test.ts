// The store's engines against each other: the same drizzle query code and hand-written statements give the same
// answers on SQLite and on a real PostgreSQL, and transactions commit, roll back and keep other flows out alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { count, eq, like, sql, sum } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type PostgresHandle } from './postgres.js';
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

describe('soon on SQLite', () => {
  it('never holds the event loop while another connection holds the write lock, and writes once it is free', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sentra-soon-'));
    const file = join(dir, 'db.sqlite');
    const main = new Database(file);
    main.pragma('journal_mode = WAL');
    main.pragma('busy_timeout = 5000');
    main.exec(
      'create table store_probe (id integer primary key autoincrement, name text not null, n integer, flag integer not null default 0)',
    );
    // the telemetry writer thread's stand-in: another connection inside a write transaction
    const other = new Database(file);
    other.exec('begin immediate');
    other.prepare("insert into store_probe (name) values ('batch')").run();
    try {
      const store = sqliteStore(main, schema);
      const ticks: number[] = [];
      const ticker = setInterval(() => ticks.push(performance.now()), 5);
      const t0 = performance.now();
      const written = store.soon(() => store.exec(sql`insert into store_probe (name) values ('hadir')`));
      // the lock is released after 150 ms: meanwhile the event loop turned (a write that waited for the lock in
      // SQLite's busy handler would have held it the whole time)
      await new Promise((r) => setTimeout(r, 150));
      other.exec('commit');
      expect((await written).changes).toBe(1);
      clearInterval(ticker);
      expect(ticks.filter((t) => t - t0 < 150).length).toBeGreaterThan(10);
      expect(main.prepare('select name from store_probe order by id').pluck().all()).toEqual(['batch', 'hadir']);
    } finally {
      other.close();
      main.close();
      rmSync(dir, { recursive: true, force: true });
    }
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
