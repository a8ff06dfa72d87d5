// The storage boundary's SQL engine: one asynchronous drizzle database whose queries run on SQLite (better-sqlite3,
// the embedded default) or on PostgreSQL (a pg pool), so a domain's store is written once for both engines.
//
// The query code is drizzle's SQLite dialect (the tables are defined once, as SQLite tables; PostgreSQL's are derived
// from them with the same names and columns: pg-schema.ts). drizzle's sqlite-proxy driver hands each rendered
// statement to `run` below: on SQLite it runs on the connection at once (a prepared statement, cached by its text); on
// PostgreSQL it is translated (`translateToPostgres`: placeholders, LIKE's case rule, the few function names that
// differ) and run on the pool, or on the transaction's client inside `tx`.
import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { SQL } from 'drizzle-orm';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { drizzle, type SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';
import { BUSY, lockTries } from './sqlite-lock.js';

export type EngineKind = 'sqlite' | 'postgres';

export interface RunResult {
  /** rows the statement changed (insert, update, delete) */
  changes: number;
}

export interface Store<S extends Record<string, unknown>> {
  readonly kind: EngineKind;
  /** drizzle's query builder (SQLite dialect), asynchronous on both engines: `await store.db.select()…` */
  readonly db: SqliteRemoteDatabase<S>;
  /** a hand-written statement's rows, as objects keyed by column name (`sql` from drizzle-orm) */
  rows<T>(query: SQL): Promise<T[]>;
  /** its first row, or undefined */
  one<T>(query: SQL): Promise<T | undefined>;
  /** a statement without rows (or whose rows are not wanted) */
  exec(query: SQL): Promise<RunResult>;
  /**
   * `fn` inside one transaction: every query of the store made while it runs (awaited from it) is part of it; other
   * queries wait for its end. A transaction inside a transaction joins it. Committed when `fn` resolves, rolled back
   * when it throws.
   */
  tx<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * `fn` in a transaction of its own that the caller does not wait on a lock for (the rule engine's write queue). It
   * never joins a transaction under way. On SQLite it answers `busy` without running `fn` when the write lock is held
   * (another connection, e.g. the telemetry writer thread: busy timeout 0 for its BEGIN IMMEDIATE) or a transaction of
   * this store is open; once begun, it runs start to end within the turn, like `tx`. On PostgreSQL rows are locked
   * per row, not per database: it is `tx` outside any transaction under way, and never answers `busy`.
   */
  tryTx<T>(fn: () => Promise<T>): Promise<{ busy: false; value: T } | { busy: true }>;
}

type Method = 'run' | 'all' | 'values' | 'get';
type Rows = { rows: unknown[]; changes?: number };

/** one engine's way to run a rendered statement; `arrays`: positional rows (drizzle's builder), else objects */
interface Runner {
  kind: EngineKind;
  run(sql: string, params: unknown[], method: Method | 'objects'): Promise<Rows>;
  tx<T>(fn: () => Promise<T>): Promise<T>;
  tryTx<T>(fn: () => Promise<T>): Promise<{ busy: false; value: T } | { busy: true }>;
}

const dialect = new SQLiteAsyncDialect();

function storeOver<S extends Record<string, unknown>>(runner: Runner, schema: S): Store<S> {
  const db = drizzle(
    async (sql, params, method) => {
      if (/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(sql))
        throw new Error('a store transaction is store.tx(fn), not drizzle transaction()');
      return runner.run(sql, params, method) as Promise<{ rows: any[] }>;
    },
    { schema },
  );
  const render = (q: SQL) => dialect.sqlToQuery(q);
  return {
    kind: runner.kind,
    db,
    async rows<T>(q: SQL) {
      const { sql, params } = render(q);
      return (await runner.run(sql, params, 'objects')).rows as T[];
    },
    async one<T>(q: SQL) {
      const { sql, params } = render(q);
      return (await runner.run(sql, params, 'objects')).rows[0] as T | undefined;
    },
    async exec(q: SQL) {
      const { sql, params } = render(q);
      return { changes: (await runner.run(sql, params, 'run')).changes ?? 0 };
    },
    tx: (fn) => runner.tx(fn),
    tryTx: (fn) => runner.tryTx(fn),
  };
}

// ---- SQLite ---------------------------------------------------------------------------------------------------------

/** statements kept prepared per connection; past this the cache starts over (hand-written statements are few) */
const STATEMENT_CACHE = 2_000;

/**
 * The store on a better-sqlite3 connection (the one the gateway opened). A statement runs synchronously when called,
 * so a transaction whose body awaits only this store's queries runs start to end within one turn of the event loop;
 * the lock below keeps a query of another async flow (one resumed between the body's awaits) out of it.
 */
export function sqliteStore<S extends Record<string, unknown>>(sqlite: Database.Database, schema: S): Store<S> {
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let stmt = statements.get(sql);
    if (!stmt) {
      if (statements.size >= STATEMENT_CACHE) statements.clear();
      stmt = sqlite.prepare(sql);
      statements.set(sql, stmt);
    }
    return stmt;
  };
  const inTx = new AsyncLocalStorage<true>();
  let open: Promise<void> | null = null;
  /** marks a transaction open, keeping the other flows out until the returned release */
  const hold = (): (() => void) => {
    let end!: () => void;
    open = new Promise((resolve) => (end = resolve));
    return () => {
      open = null;
      end();
    };
  };
  /** `fn` inside the transaction just begun, committed when it resolves, rolled back when it throws */
  async function committed<T>(fn: () => Promise<T>): Promise<T> {
    try {
      const result = await inTx.run(true, fn);
      sqlite.prepare('COMMIT').run();
      return result;
    } catch (err) {
      if (sqlite.inTransaction) sqlite.prepare('ROLLBACK').run();
      throw err;
    }
  }

  function execute(sql: string, params: unknown[], method: Method | 'objects'): Rows {
    const stmt = prepare(sql);
    if (!stmt.reader) return { rows: [], changes: stmt.run(...params).changes };
    switch (method) {
      case 'objects':
        return { rows: stmt.raw(false).all(...params) };
      case 'get':
        return { rows: stmt.raw(true).get(...params) as unknown[] };
      default:
        return { rows: stmt.raw(true).all(...params) };
    }
  }

  const lock = lockTries(sqlite);
  /** a transaction of this store under way (a write waits for its end before each try) */
  const held = () => open;
  /** BEGIN IMMEDIATE, and the transaction marked open in the same turn (no other flow's query gets in between) */
  const begin = () => {
    sqlite.prepare('BEGIN IMMEDIATE').run();
    return hold();
  };

  const runner: Runner = {
    kind: 'sqlite',
    async run(sql, params, method) {
      if (inTx.getStore()) return execute(sql, params, method);
      while (open) await open;
      if (prepare(sql).readonly) return execute(sql, params, method);
      return lock.unblocked(() => execute(sql, params, method), held);
    },
    async tx(fn) {
      if (inTx.getStore()) return fn();
      const release = await lock.unblocked(begin, held);
      try {
        return await committed(fn);
      } finally {
        release();
      }
    },
    async tryTx(fn) {
      if (open) return { busy: true };
      const release = lock.unwaited(begin);
      if (release === BUSY) return { busy: true };
      try {
        return { busy: false, value: await committed(fn) };
      } finally {
        release();
      }
    },
  };
  return storeOver(runner, schema);
}

// ---- PostgreSQL -----------------------------------------------------------------------------------------------------

const TRANSLATIONS = 2_000;
const translations = new Map<string, string>();

/**
 * A statement of drizzle's SQLite dialect as PostgreSQL reads it. Outside string literals and quoted names: `?` →
 * `$1, $2, …`; `like` → `ilike` (SQLite's LIKE ignores ASCII case, PostgreSQL's does not); `ifnull(` → `coalesce(`;
 * the casts whose names differ (`as real` is float4 on PostgreSQL, `as integer` int4); an upsert's target columns
 * without their table. Anything else a store writes
 * must be SQL both engines read alike (the two-engine suites check it).
 */
export function translateToPostgres(sql: string): string {
  const cached = translations.get(sql);
  if (cached !== undefined) return cached;
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      // a literal or a quoted name, with its doubled quotes, copied as is
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '?') {
      out += `$${++n}`;
      i++;
      continue;
    }
    if (/[A-Za-z_]/.test(c) && (i === 0 || !/[A-Za-z0-9_$.]/.test(sql[i - 1]!))) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_]/.test(sql[j]!)) j++;
      const word = sql.slice(i, j);
      const lower = word.toLowerCase();
      if (lower === 'like') out += 'ilike';
      else if (lower === 'ifnull' && sql[j] === '(') out += 'coalesce';
      else if (lower === 'real' && /\bas\s+$/i.test(out)) out += 'double precision';
      else if (lower === 'integer' && /\bas\s+$/i.test(out)) out += 'bigint';
      else out += word;
      i = j;
      continue;
    }
    out += c;
    i++;
  }
  // drizzle's SQLite dialect names an upsert's target columns with their table ("t"."c"); PostgreSQL takes bare names
  out = out.replace(
    /\bon conflict \(([^)]*)\)/gi,
    (_, cols: string) => `on conflict (${cols.replace(/"[^"]*"\./g, '')})`,
  );
  if (translations.size >= TRANSLATIONS) translations.clear();
  translations.set(sql, out);
  return out;
}

/** The store on a pg pool (openPostgres). A transaction holds one client of the pool from BEGIN to its end. */
export function postgresStore<S extends Record<string, unknown>>(pool: pg.Pool, schema: S): Store<S> {
  const client = new AsyncLocalStorage<pg.PoolClient>();

  async function execute(on: pg.Pool | pg.PoolClient, sql: string, params: unknown[], method: Method | 'objects') {
    const text = translateToPostgres(sql);
    const values = params.map((v) => (v === undefined ? null : v));
    if (method === 'objects') {
      const r = await on.query({ text, values });
      return { rows: r.rows, changes: r.rowCount ?? 0 };
    }
    const r = await on.query({ text, values, rowMode: 'array' });
    if (method === 'get') return { rows: r.rows[0] as unknown[] };
    return { rows: r.rows, changes: r.rowCount ?? 0 };
  }

  const runner: Runner = {
    kind: 'postgres',
    run: (sql, params, method) => execute(client.getStore() ?? pool, sql, params, method),
    async tx(fn) {
      if (client.getStore()) return fn();
      const c = await pool.connect();
      let broken: Error | undefined;
      try {
        await c.query('BEGIN');
        try {
          const result = await client.run(c, fn);
          await c.query('COMMIT');
          return result;
        } catch (err) {
          await c.query('ROLLBACK').catch((e: Error) => (broken = e));
          throw err;
        }
      } finally {
        // a client whose connection failed is discarded, not handed to the next caller
        c.release(broken);
      }
    },
    // a transaction of its own, even when called from inside one (a timer armed in it carries its context along)
    tryTx: async (fn) => ({ busy: false, value: await client.exit(() => runner.tx(fn)) }),
  };
  return storeOver(runner, schema);
}
