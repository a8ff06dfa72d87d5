// The PostgreSQL tables, derived from the SQLite ones: one definition of the tables (the `sqliteTable`s of each
// domain), so the two engines cannot drift apart. Same table, column, index and constraint names; every SQLite
// `integer` a `bigint` (epoch ms and counts, read back as JS numbers: postgres.ts), `real` a `double precision`,
// `text` a `text`, `blob` a `bytea`. Booleans stay 0/1 integers, as SQLite stores them, so rows read from either
// engine have the same shapes. Queries never use these tables (they run in the SQLite dialect on both engines:
// store.ts); drizzle-kit generates the PostgreSQL migrations from them (schema.pg.ts) and the tests compare them.
import { getTableColumns, is, SQL } from 'drizzle-orm';
import { getTableConfig, SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import {
  bigint,
  bigserial,
  customType,
  doublePrecision,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  type PgColumnBuilderBase,
  type PgTable,
} from 'drizzle-orm/pg-core';

/**
 * The telemetry store's own tables: their PostgreSQL layout is the telemetry store's (its PostgreSQL implementation
 * lays them out itself, clustered and partitioned as its hot paths need), not a copy of SQLite's WITHOUT ROWID tables.
 */
export const PG_EXCLUDED_TABLES: readonly string[] = [
  'telemetry_points',
  'telemetry_rollup_minute',
  'telemetry_rollup_hour',
  'telemetry_journal_0',
  'telemetry_journal_1',
];

/** bytea, read and written as a Buffer like SQLite's `blob({ mode: 'buffer' })` */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * SQLite's INTEGER PRIMARY KEY is the rowid: an insert with a null id gets the next one. Its PostgreSQL column is a
 * bigserial, and a trigger (nullIdTriggerSql) gives a null id the sequence's next value.
 */
export function isRowidColumn(column: SQLiteColumn): boolean {
  return column.primary && column.getSQLType() === 'integer';
}

function pgColumn(column: SQLiteColumn): PgColumnBuilderBase {
  const where = `${column.table ? getTableConfig(column.table).name : '?'}.${column.name}`;
  const type = column.getSQLType();
  let builder;
  if (isRowidColumn(column)) builder = bigserial(column.name, { mode: 'number' });
  else if (type === 'integer') builder = bigint(column.name, { mode: 'number' });
  else if (type === 'real') builder = doublePrecision(column.name);
  else if (type === 'text') builder = text(column.name, { enum: column.enumValues as [string, ...string[]] });
  else if (type === 'blob') builder = bytea(column.name);
  else throw new Error(`pg-schema: ${where} is a SQLite ${type}, which has no PostgreSQL mapping here`);
  if (column.primary) builder.primaryKey();
  else if (column.notNull) builder.notNull();
  if (column.default !== undefined) {
    const value = column.default;
    // an SQL default would need its own PostgreSQL spelling: map it here when a table first has one
    if (is(value, SQL) || (typeof value === 'object' && value !== null)) {
      throw new Error(`pg-schema: ${where} has an SQL or object default, which has no PostgreSQL mapping here`);
    }
    // integer({ mode: 'boolean' }).default(true) is 1 in SQLite; the bigint column takes the same number
    builder.default((typeof value === 'boolean' ? Number(value) : value) as never);
  }
  if (column.isUnique) builder.unique(column.uniqueName);
  return builder;
}

/** the SQLite columns in `sql` (an index's `where`) swapped for the PostgreSQL table's */
function swapColumns(sql: SQL, columnOf: (column: SQLiteColumn) => unknown): SQL {
  const swap = (chunk: unknown): unknown => {
    if (is(chunk, SQL)) return swapColumns(chunk, columnOf);
    if (Array.isArray(chunk)) return chunk.map(swap);
    if (is(chunk, SQLiteTable)) throw new Error('pg-schema: a table inside an index condition is not mapped');
    if (is(chunk, SQLiteColumn)) return columnOf(chunk);
    return chunk;
  };
  return new SQL(sql.queryChunks.map(swap) as SQL['queryChunks']);
}

// one PostgreSQL table per SQLite table, so foreign keys point at the same derived objects drizzle-kit sees
const derived = new WeakMap<SQLiteTable, PgTable>();

/** The PostgreSQL table of a SQLite table (memoised: foreign keys between derived tables refer to each other). */
export function pgTableFrom(table: SQLiteTable): PgTable {
  const done = derived.get(table);
  if (done) return done;
  const config = getTableConfig(table);
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>;
  const keyOf = new Map<SQLiteColumn, string>(Object.entries(columns).map(([key, column]) => [column, key]));
  const key = (column: SQLiteColumn) => {
    const k = keyOf.get(column);
    if (k === undefined) throw new Error(`pg-schema: ${config.name}: column ${column.name} is not the table's own`);
    return k;
  };
  const pgColumns = Object.fromEntries(Object.entries(columns).map(([k, column]) => [k, pgColumn(column)]));

  // called lazily by getTableConfig (drizzle-kit, the tests), when every referenced table can be derived too
  const pg: PgTable = pgTable(config.name, pgColumns, (t) => {
    const col = (column: SQLiteColumn) => (t as Record<string, any>)[key(column)];
    const extras = [];
    for (const pk of config.primaryKeys) {
      extras.push(primaryKey({ name: pk.name, columns: pk.columns.map(col) as [any, ...any[]] }));
    }
    for (const u of config.uniqueConstraints) {
      extras.push(unique(u.getName()).on(...(u.columns.map(col) as [any, ...any[]])));
    }
    for (const { config: ix } of config.indexes) {
      const on = ix.columns.map((c) => (is(c, SQL) ? swapColumns(c, col) : col(c)));
      const built = (ix.unique ? uniqueIndex(ix.name) : index(ix.name)).on(...(on as [any, ...any[]]));
      extras.push(ix.where ? built.where(swapColumns(ix.where, col)) : built);
    }
    for (const fk of config.foreignKeys) {
      const ref = fk.reference();
      const foreign = pgTableFrom(ref.foreignTable) as unknown as Record<string, unknown>;
      const foreignKeyOf = new Map(Object.entries(getTableColumns(ref.foreignTable)).map(([k, c]) => [c, k]));
      let built = foreignKey({
        name: fk.getName(),
        columns: ref.columns.map(col) as [any, ...any[]],
        foreignColumns: ref.foreignColumns.map((c) => foreign[foreignKeyOf.get(c)!]) as [any, ...any[]],
      });
      if (fk.onDelete) built = built.onDelete(fk.onDelete);
      if (fk.onUpdate) built = built.onUpdate(fk.onUpdate);
      extras.push(built);
    }
    return extras;
  });
  derived.set(table, pg);
  return pg;
}

/** the SQLite tables of `schema` (a module's exports) that PostgreSQL has derived, by export name */
export function derivedSqliteTables(schema: Record<string, unknown>): Record<string, SQLiteTable> {
  const out: Record<string, SQLiteTable> = {};
  for (const [name, value] of Object.entries(schema)) {
    if (is(value, SQLiteTable) && !PG_EXCLUDED_TABLES.includes(getTableConfig(value).name)) out[name] = value;
  }
  return out;
}

/** every SQLite table of `schema` but the excluded ones, derived, under the same export names */
export function pgSchemaFrom(schema: Record<string, unknown>): Record<string, PgTable> {
  return Object.fromEntries(
    Object.entries(derivedSqliteTables(schema)).map(([name, table]) => [name, pgTableFrom(table)]),
  );
}

/** the tables whose id a null insert fills (their rowid column, which has to be `id`: the trigger sets NEW.id) */
export function nullIdTables(schema: Record<string, unknown>): string[] {
  const names: string[] = [];
  for (const table of Object.values(derivedSqliteTables(schema))) {
    const { name, columns } = getTableConfig(table);
    const rowid = columns.find(isRowidColumn);
    if (!rowid) continue;
    if (rowid.name !== 'id') throw new Error(`pg-schema: ${name}'s integer primary key is ${rowid.name}, not id`);
    names.push(name);
  }
  return names.sort();
}
