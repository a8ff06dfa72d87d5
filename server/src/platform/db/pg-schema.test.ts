import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getTableName, is, SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/sqlite-proxy';
import { getTableConfig as pgConfig, PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, SQLiteSyncDialect, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../schema.js';
import * as pgExports from '../../schema.pg.js';
import { derivedSqliteTables, nullIdTables, PG_EXCLUDED_TABLES, pgSchemaFrom, pgTableFrom } from './pg-schema.js';
import { NULL_ID_FUNCTION, nullIdTriggerName, writeNullIdMigration } from './pg-null-id.js';
import { openPostgres, type PostgresHandle } from './postgres.js';
import { findUp } from './sqlite.js';
import { hasPostgres, testDatabase } from './testing/postgres.js';

const migrationsFolder = findUp('drizzle-pg', import.meta.url);
const derived = pgSchemaFrom(schema);
const REGENERATE =
  'the drizzle-pg migrations do not match the tables derived from SQLite: run `npm run db:generate:pg -w server`';

const action = (a: string | undefined) => a ?? 'no action';
const sqliteWhere = (where: SQL | undefined) => (where ? new SQLiteSyncDialect().sqlToQuery(where).sql : undefined);
const pgWhere = (where: SQL | undefined) => (where ? new PgDialect().sqlToQuery(where).sql : undefined);

/** what the derived definition says, in the terms the catalog answers in */
function expected(table: PgTable) {
  const c = pgConfig(table);
  const pk = c.columns.find((col) => col.primary);
  const constraints = [
    ...(pk ? [{ name: `${c.name}_pkey`, type: 'p', columns: [pk.name] }] : []),
    ...c.primaryKeys.map((k) => ({ name: k.getName(), type: 'p', columns: k.columns.map((col) => col.name) })),
    ...c.columns
      .filter((col) => col.isUnique)
      .map((col) => ({ name: col.uniqueName!, type: 'u', columns: [col.name] })),
    ...c.uniqueConstraints.map((u) => ({ name: u.getName(), type: 'u', columns: u.columns.map((col) => col.name) })),
    ...c.foreignKeys.map((fk) => {
      const ref = fk.reference();
      return {
        name: fk.getName(),
        type: 'f',
        columns: ref.columns.map((col) => col.name),
        foreignTable: pgConfig(ref.foreignTable).name,
        foreignColumns: ref.foreignColumns.map((col) => col.name),
        onDelete: action(fk.onDelete),
        onUpdate: action(fk.onUpdate),
      };
    }),
  ];
  return { config: c, constraints };
}

describe('the PostgreSQL tables derived from the SQLite ones', () => {
  it('derive every table of the schema but the telemetry store’s own', () => {
    const sqliteNames = Object.values(schema).map((t) => sqliteConfig(t).name);
    // a renamed telemetry table would otherwise slip into the derived schema unnoticed
    for (const name of PG_EXCLUDED_TABLES) expect(sqliteNames).toContain(name);
    const pgNames = Object.values(derived).map((t) => pgConfig(t).name);
    expect(pgNames.sort()).toEqual(sqliteNames.filter((n) => !PG_EXCLUDED_TABLES.includes(n)).sort());
  });

  it('are what schema.pg.ts exports to drizzle-kit', () => {
    const missing = Object.keys(derived).filter((k) => !(k in pgExports));
    expect(missing, 'add these to server/src/schema.pg.ts').toEqual([]);
    expect(Object.keys(pgExports).sort()).toEqual(Object.keys(derived).sort());
    for (const [k, table] of Object.entries(derived)) expect((pgExports as Record<string, unknown>)[k]).toBe(table);
  });

  it.each(Object.entries(derivedSqliteTables(schema)))('%s: same names, columns, keys, indexes', (key, table) => {
    const s = sqliteConfig(table);
    const p = pgConfig(derived[key]!);
    expect(p.name).toBe(s.name);

    const pgType = (col: SQLiteColumn) => {
      const type = col.getSQLType();
      if (type === 'integer') return col.primary ? 'bigserial' : 'bigint';
      return { real: 'double precision', text: 'text', blob: 'bytea' }[type] ?? `unmapped ${type}`;
    };
    const literal = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
    expect(
      p.columns.map((c) => [c.name, c.getSQLType(), c.notNull, c.primary, c.default, c.isUnique, c.uniqueName]),
    ).toEqual(
      s.columns.map((c) => [c.name, pgType(c), c.notNull, c.primary, literal(c.default), c.isUnique, c.uniqueName]),
    );

    const keys = (pks: { columns: { name: string }[]; getName(): string }[]) =>
      pks.map((k) => [k.getName(), k.columns.map((c) => c.name)]);
    expect(keys(p.primaryKeys)).toEqual(keys(s.primaryKeys));
    const uniques = (us: { columns: { name: string }[]; getName(): string | undefined }[]) =>
      us.map((u) => [u.getName(), u.columns.map((c) => c.name)]);
    expect(uniques(p.uniqueConstraints)).toEqual(uniques(s.uniqueConstraints));

    const colName = (c: unknown) => (is(c, SQL) ? 'expression' : (c as { name: string }).name);
    expect(
      p.indexes.map((i) => [i.config.name, i.config.unique, i.config.columns.map(colName), pgWhere(i.config.where)]),
    ).toEqual(
      s.indexes.map((i) => [
        i.config.name,
        i.config.unique,
        i.config.columns.map(colName),
        sqliteWhere(i.config.where),
      ]),
    );
    // the condition names the derived table's own columns, not the SQLite table's
    for (const i of p.indexes) {
      for (const chunk of i.config.where?.queryChunks ?? []) {
        if (chunk && typeof chunk === 'object' && 'table' in chunk) expect(chunk.table).toBe(derived[key]);
      }
    }

    const fks = (list: typeof s.foreignKeys | typeof p.foreignKeys) =>
      list.map((fk) => {
        const ref = fk.reference();
        return [
          fk.getName(),
          ref.columns.map((c) => c.name),
          getTableName(ref.foreignTable),
          ref.foreignColumns.map((c) => c.name),
          action(fk.onDelete),
          action(fk.onUpdate),
        ];
      });
    expect(fks(p.foreignKeys)).toEqual(fks(s.foreignKeys));
    // a foreign key points at the derived table, the one drizzle-kit knows
    for (const fk of p.foreignKeys) {
      const ref = fk.reference();
      expect(Object.values(derived)).toContain(ref.foreignTable);
    }
  });

  it('maps a boolean default to 0/1 and a rowid to a bigserial', () => {
    const tasks = pgConfig(pgTableFrom(schema.tasks));
    const col = (name: string) => tasks.columns.find((c) => c.name === name)!;
    expect([col('open').getSQLType(), col('open').default]).toEqual(['bigint', 1]);
    expect(pgConfig(pgTableFrom(schema.roles)).columns.find((c) => c.name === 'descendant')!.default).toBe(0);
    expect(col('id').getSQLType()).toBe('bigserial');
    expect(nullIdTables(schema)).toContain('tasks');
    expect(nullIdTables(schema)).not.toContain('sessions');
  });
});

describe('the null-id migration writer', () => {
  const folder = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-pg-null-id-'));
    fs.mkdirSync(path.join(dir, 'meta'));
    return dir;
  };
  const custom =
    (dir: string, tag: string, text = '-- Custom SQL migration file, put your code below! --\n') =>
    () => {
      fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ entries: [{ tag }] }));
      fs.writeFileSync(path.join(dir, `${tag}.sql`), text);
    };

  it('writes the triggers of the tables that have none yet, and nothing when none is missing', () => {
    const dir = folder();
    try {
      fs.writeFileSync(path.join(dir, '0000_init.sql'), 'CREATE TRIGGER "tasks_null_id" BEFORE INSERT ON "tasks"');
      const file = writeNullIdMigration(schema, dir, custom(dir, '0001_null-id'));
      expect(file).toBe(path.join(dir, '0001_null-id.sql'));
      const text = fs.readFileSync(file!, 'utf8');
      expect(text).toContain(`CREATE OR REPLACE FUNCTION "${NULL_ID_FUNCTION}"()`);
      const made = [...text.matchAll(/CREATE TRIGGER "(\w+)_null_id" BEFORE INSERT ON "(\w+)"/g)];
      expect(made.every((m) => m[1] === m[2])).toBe(true);
      expect(made.map((m) => m[1])).toEqual(nullIdTables(schema).filter((t) => t !== 'tasks'));
      let asked = false;
      expect(writeNullIdMigration(schema, dir, () => (asked = true))).toBeUndefined();
      expect(asked).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never overwrites a migration that holds SQL', () => {
    const dir = folder();
    try {
      expect(() => writeNullIdMigration(schema, dir, custom(dir, '0000_init', 'CREATE TABLE x (id int);\n'))).toThrow(
        /not the empty custom migration/,
      );
      expect(fs.readFileSync(path.join(dir, '0000_init.sql'), 'utf8')).toBe('CREATE TABLE x (id int);\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasPostgres)('the drizzle-pg migrations on PostgreSQL', () => {
  let db: PostgresHandle;
  const q = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
    (await db.pool.query<T>(text, params)).rows;

  beforeAll(async () => {
    db = await openPostgres({ url: await testDatabase(), migrationsFolder });
  });
  afterAll(() => db?.close());

  it.each(Object.keys(derived))('%s: the columns, constraints and indexes of the derived table', async (key) => {
    const { config, constraints } = expected(derived[key]!);
    const table = config.name;

    const columns = await q<{ name: string; type: string; nullable: string; default: string | null }>(
      `select column_name as name, data_type as type, is_nullable as nullable, column_default as default
       from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position`,
      [table],
    );
    // a literal default is compared by its value (the catalog spells it `'{}'::text`, `0`)
    const defaults: unknown[] = [];
    for (const c of columns) {
      if (c.default === null || c.default.startsWith('nextval(')) defaults.push(c.default && 'sequence');
      else defaults.push((await q<{ v: unknown }>(`select ${c.default} as v`))[0]!.v);
    }
    const pgType = (sqlType: string) => (sqlType === 'bigserial' ? 'bigint' : sqlType);
    expect(
      columns.map((c, i) => [c.name, c.type, c.nullable, defaults[i]]),
      `${table}: ${REGENERATE}`,
    ).toEqual(
      config.columns.map((c) => [
        c.name,
        pgType(c.getSQLType()),
        c.notNull ? 'NO' : 'YES',
        c.getSQLType() === 'bigserial' ? 'sequence' : (c.default ?? null),
      ]),
    );

    const actions: Record<string, string> = {
      a: 'no action',
      r: 'restrict',
      c: 'cascade',
      n: 'set null',
      d: 'set default',
    };
    const found = await q<{
      name: string;
      type: string;
      columns: string[];
      foreign_table: string | null;
      foreign_columns: string[] | null;
      on_delete: string;
      on_update: string;
    }>(
      `select c.conname as name, c.contype as type,
         array(select a.attname from unnest(c.conkey) with ordinality k(n, i)
               join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i)::text[] as columns,
         f.relname as foreign_table,
         array(select a.attname from unnest(c.confkey) with ordinality k(n, i)
               join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i)::text[] as foreign_columns,
         c.confdeltype as on_delete, c.confupdtype as on_update
       from pg_constraint c join pg_class t on t.oid = c.conrelid
         join pg_namespace s on s.oid = t.relnamespace left join pg_class f on f.oid = c.confrelid
       where s.nspname = 'public' and t.relname = $1 and c.contype in ('p', 'u', 'f')`,
      [table],
    );
    const byName = <T extends { name?: string }>(list: T[]) =>
      [...list].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
    expect(
      byName(
        found.map((c) =>
          c.type === 'f'
            ? {
                name: c.name,
                type: c.type,
                columns: c.columns,
                foreignTable: c.foreign_table,
                foreignColumns: c.foreign_columns,
                onDelete: actions[c.on_delete],
                onUpdate: actions[c.on_update],
              }
            : { name: c.name, type: c.type, columns: c.columns },
        ),
      ),
      `${table}: ${REGENERATE}`,
    ).toEqual(byName(constraints));

    // indexes of their own (a primary key's or a unique constraint's index is the constraint's, checked above)
    const indexes = await q<{ name: string; unique: boolean; columns: string[]; where: string | null }>(
      `select i.relname as name, x.indisunique as unique,
         array(select a.attname from unnest(x.indkey::int2[]) with ordinality k(n, i)
               join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.n order by k.i)::text[] as columns,
         pg_get_expr(x.indpred, x.indrelid) as where
       from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
         join pg_namespace s on s.oid = t.relnamespace
       where s.nspname = 'public' and t.relname = $1
         and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid and c.contype in ('p', 'u'))`,
      [table],
    );
    const wanted = [];
    for (const { config: ix } of config.indexes) {
      wanted.push({
        name: ix.name,
        unique: ix.unique,
        columns: ix.columns.map((c) => (c as { name: string }).name),
        where: ix.where ? await predicate(table, ix.where) : null,
      });
    }
    expect(byName(indexes), `${table}: ${REGENERATE}`).toEqual(byName(wanted));
  });

  /** the condition as PostgreSQL spells it back: an index made with it in a transaction that is rolled back */
  async function predicate(table: string, where: SQL): Promise<string> {
    const { sql, params } = new PgDialect().sqlToQuery(where, 'indexes');
    expect(params).toEqual([]);
    const client = await db.pool.connect();
    try {
      await client.query('begin');
      await client.query(`create index "pg_schema_probe" on "${table}" ((1)) where ${sql}`);
      const { rows } = await client.query<{ where: string }>(
        `select pg_get_expr(indpred, indrelid) as where from pg_index where indexrelid = 'pg_schema_probe'::regclass`,
      );
      return rows[0]!.where;
    } finally {
      await client.query('rollback');
      client.release();
    }
  }

  it('has no table the derived schema lacks (but the telemetry store’s, were they to be migrated here)', async () => {
    const tables = await q<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'public'`,
    );
    const names = Object.values(derived).map((t) => pgConfig(t).name);
    const found = tables.map((t) => t.name).filter((n) => !PG_EXCLUDED_TABLES.includes(n));
    expect(found.sort(), REGENERATE).toEqual(names.sort());
  });

  it('gives every table with a rowid id the null-id trigger', async () => {
    const triggers = await q<{ table: string; name: string; fn: string; type: number; enabled: string }>(
      `select c.relname as table, g.tgname as name, p.proname as fn, g.tgtype as type, g.tgenabled as enabled
       from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_proc p on p.oid = g.tgfoid
       where not g.tgisinternal and c.relname = any($1)`,
      [Object.values(derived).map((t) => pgConfig(t).name)],
    );
    // tgtype 7: ROW (1) | BEFORE (2) | INSERT (4)
    expect(triggers.map((t) => [t.table, t.name, t.fn, t.type, t.enabled]).sort(), REGENERATE).toEqual(
      nullIdTables(schema).map((t) => [t, nullIdTriggerName(t), NULL_ID_FUNCTION, 7, 'O']),
    );
    expect(nullIdTables(schema).length).toBeGreaterThan(10);
  });

  it('fills a null id, as drizzle’s SQLite dialect renders an insert without one, with increasing ids', async () => {
    const rendered: { sql: string; params: unknown[] }[] = [];
    const proxy = drizzle(async (sql, params) => {
      rendered.push({ sql, params });
      return { rows: [] };
    });
    const tenant = (n: number) => ({
      username: `u${n}`,
      first: 'F',
      email: `u${n}@x.id`,
      passHash: 'h',
      tenantName: 'T',
      billingExpiresAt: 0,
      createdAt: n,
    });
    await proxy.insert(schema.tenants).values(tenant(1)).run();
    expect(rendered[0]!.sql).toMatch(/values \(null, /);
    const toPg = (sql: string) => {
      let n = 0;
      return sql.replace(/\?/g, () => `$${++n}`);
    };
    const insert = async (n: number) => {
      rendered.length = 0;
      await proxy.insert(schema.tenants).values(tenant(n)).run();
      const { sql, params } = rendered[0]!;
      await q(toPg(sql), params);
      return (await q<{ id: number }>('select id from tenants where username = $1', [`u${n}`]))[0]!.id;
    };
    const ids = [await insert(1), await insert(2), await insert(3)];
    expect(ids[0]).toBeGreaterThan(0);
    expect(ids[1]).toBeGreaterThan(ids[0]!);
    expect(ids[2]).toBeGreaterThan(ids[1]!);
    expect(typeof ids[0]).toBe('number');

    // an explicit id (a fixture, a row copied from SQLite) moves the sequence past it, as SQLite's rowid does
    await q(`insert into tenants values (1000, 'x', 'X', null, 'x@x.id', 'h', 'T', 0, 0)`);
    expect(await insert(4)).toBe(1001);
    // an omitted id takes the column's default from the same sequence
    const omitted = await q<{ id: number }>(
      `insert into tenants (username, first, email, pass_hash, tenant_name, billing_expires_at, created_at)
       values ('y', 'Y', 'y@x.id', 'h', 'T', 0, 0) returning id`,
    );
    expect(omitted[0]!.id).toBe(1002);
  });

  it('reads a bytea back as the Buffer written', async () => {
    const payload = Buffer.from([0, 1, 254, 255]);
    await q(`insert into mqtt_retained (topic, payload, qos) values ('t/1', $1, 1)`, [payload]);
    const [row] = await q<{ payload: Buffer; qos: number }>(`select payload, qos from mqtt_retained`);
    expect(row).toEqual({ payload, qos: 1 });
  });

  it('migrates once when two gateways open one fresh database at the same time', async () => {
    const fresh = await testDatabase();
    const handles = await Promise.all([
      openPostgres({ url: fresh, migrationsFolder }),
      openPostgres({ url: fresh, migrationsFolder }),
    ]);
    try {
      const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
        entries: unknown[];
      };
      const { rows } = await handles[0].pool.query<{ n: number }>(
        'select count(*) as n from drizzle.__drizzle_migrations',
      );
      expect(rows[0]!.n).toBe(journal.entries.length);
      const tables = await handles[1].pool.query<{ name: string }>(
        `select table_name as name from information_schema.tables where table_schema = 'public'`,
      );
      expect(tables.rows.map((t) => t.name)).toEqual(
        expect.arrayContaining(Object.values(derived).map((t) => pgConfig(t).name)),
      );
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});
