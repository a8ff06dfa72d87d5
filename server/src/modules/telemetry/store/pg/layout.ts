// The PostgreSQL tables telemetry owns, laid out at open (as SQLite's ensureClusteredLayout rebuilds its clustered
// tables after the migrations): points and minute rollups partitioned by day on their timestamp, with a default
// partition so no point is ever refused for its time; hour rollups and the writers' generations plain. Everything is
// idempotent and runs under an advisory lock, so gateways opening together lay it out once. The series, states and
// settings tables come from the derived schema's migrations.
import type pg from 'pg';
import type { Logger } from '../../../../platform/log.js';
import { DAY_MS } from '../telemetry-store.js';
import { inTransaction } from './transaction.js';

/** the lock every gateway takes to change telemetry's layout (tables, partitions): one at a time */
export const LAYOUT_LOCK = 0x5e47b;

/** days partitioned ahead of today: a partition exists two days before its first point, whatever the upkeep misses */
export const DAYS_AHEAD = 2;

/**
 * How long the upkeep waits for a table lock (creating or dropping a partition locks the parent): past it, it gives up
 * and tries at the next run rather than holding back the writes queued behind its lock request.
 */
export const LAYOUT_LOCK_TIMEOUT_MS = 1000;

/** tables partitioned by day on a timestamp (epoch ms) */
export const PARTITIONED = [
  { table: 'telemetry_points', column: 'ts' },
  { table: 'telemetry_rollup_minute', column: 'bucket_ts' },
] as const;

export type PartitionedTable = (typeof PARTITIONED)[number]['table'];

const ROLLUP_COLUMNS = `series_id bigint not null, bucket_ts bigint not null, "count" bigint not null,
  "sum" double precision not null, "min" double precision not null, "max" double precision not null,
  "first" double precision not null, first_ts bigint not null, "last" double precision not null, last_ts bigint not null,
  primary key (series_id, bucket_ts)`;

/** the tables as created; `partition by` only for the partitioned ones */
const TABLES: Record<string, string> = {
  telemetry_points: `(series_id bigint not null, ts bigint not null, num double precision, text text,
    primary key (series_id, ts)) partition by range (ts)`,
  telemetry_rollup_minute: `(${ROLLUP_COLUMNS}) partition by range (bucket_ts)`,
  telemetry_rollup_hour: `(${ROLLUP_COLUMNS})`,
  telemetry_writer_state: '(writer text primary key, rollup_generation bigint not null, updated_at bigint not null)',
};

export const defaultPartition = (table: PartitionedTable) => `${table}_default`;

/** the partition of the UTC day starting at `day`: telemetry_points_p20250131 */
export const partitionName = (table: PartitionedTable, day: number) =>
  `${table}_p${new Date(day).toISOString().slice(0, 10).replace(/-/g, '')}`;

export interface Partition {
  name: string;
  /** [from, to) in epoch ms; null for the default partition */
  from: number | null;
  to: number | null;
}

/** the partitions of `table` with their bounds */
export async function partitionsOf(db: pg.Pool | pg.PoolClient, table: PartitionedTable): Promise<Partition[]> {
  const { rows } = await db.query<{ name: string; bound: string }>(
    `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
     from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = to_regclass($1) order by c.relname`,
    [table],
  );
  return rows.map((r) => {
    const m = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(r.bound);
    return { name: r.name, from: m ? Number(m[1]) : null, to: m ? Number(m[2]) : null };
  });
}

/** runs `work` in a transaction holding the layout lock, waiting at most `lockTimeoutMs` for each table lock */
export function underLayoutLock<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  lockTimeoutMs = 0,
): Promise<T> {
  return inTransaction(pool, work, {
    async onBegin(client) {
      await client.query('select pg_advisory_xact_lock($1)', [LAYOUT_LOCK]);
      if (lockTimeoutMs > 0) await client.query(`set local lock_timeout = ${Math.round(lockTimeoutMs)}`);
    },
  });
}

/**
 * Creates what is missing. A `telemetry_points` or `telemetry_rollup_minute` found as a plain table (created by a
 * migration derived from the SQLite schema) is rebuilt as a partitioned one, its rows copied: its readers and writers
 * would otherwise find no partitions to drop or create.
 */
async function createTables(client: pg.PoolClient, log?: Logger): Promise<void> {
  for (const [table, columns] of Object.entries(TABLES)) {
    const partitioned = PARTITIONED.find((p) => p.table === table);
    if (partitioned) {
      const { rows } = await client.query<{ kind: string }>(
        'select relkind as kind from pg_class where oid = to_regclass($1)',
        [table],
      );
      if (rows[0] && rows[0].kind !== 'p') {
        const n = (await client.query<{ n: number }>(`select count(*) as n from ${table}`)).rows[0]!.n;
        if (n > 0) log?.warn(`rebuilding ${table} (${n} rows) as a table partitioned by day`);
        await client.query(`alter table ${table} rename to ${table}__plain`);
        // the plain table's primary key index keeps its name: free it for the new table's
        await client.query(`alter table ${table}__plain drop constraint if exists ${table}_pkey`);
        await client.query(`create table ${table} ${columns}`);
        await client.query(`create table ${defaultPartition(partitioned.table)} partition of ${table} default`);
        await client.query(`insert into ${table} select * from ${table}__plain`);
        await client.query(`drop table ${table}__plain`);
        continue;
      }
    }
    await client.query(`create table if not exists ${table} ${columns}`);
    if (partitioned)
      await client.query(
        `create table if not exists ${defaultPartition(partitioned.table)} partition of ${table} default`,
      );
  }
}

/**
 * The partition of the day starting at `day`. Rows of that day already in the default partition (a point stamped
 * days ahead, or a day the upkeep missed) would make a plain `partition of` fail: they move into the new partition
 * in the same transaction.
 */
async function createPartition(client: pg.PoolClient, table: PartitionedTable, column: string, day: number) {
  const name = partitionName(table, day);
  const bounds = `for values from (${day}) to (${day + DAY_MS})`;
  await client.query('savepoint partition');
  try {
    await client.query(`create table ${name} partition of ${table} ${bounds}`);
  } catch (err) {
    if ((err as { code?: string }).code !== '23514') throw err;
    await client.query('rollback to savepoint partition');
    await client.query(`create table ${name} (like ${table} including all)`);
    await client.query(
      `with moved as (delete from ${defaultPartition(table)} where ${column} >= $1 and ${column} < $2 returning *)
       insert into ${name} select * from moved`,
      [day, day + DAY_MS],
    );
    await client.query(`alter table ${table} attach partition ${name} ${bounds}`);
  }
  await client.query('release savepoint partition');
  return name;
}

/** creates the partitions of today and the next DAYS_AHEAD days that do not exist yet; returns their names */
export async function ensurePartitions(client: pg.PoolClient, now: number): Promise<string[]> {
  const created: string[] = [];
  const today = now - (((now % DAY_MS) + DAY_MS) % DAY_MS);
  for (const { table, column } of PARTITIONED) {
    const have = await partitionsOf(client, table);
    for (let d = 0; d <= DAYS_AHEAD; d++) {
      const day = today + d * DAY_MS;
      if (have.some((p) => p.from !== null && p.from < day + DAY_MS && p.to! > day)) continue;
      created.push(await createPartition(client, table, column, day));
    }
  }
  return created;
}

/** Lays telemetry's tables out and partitions the coming days (at open; `ensurePartitions` again every hour). */
export async function ensurePgLayout(pool: pg.Pool, opts: { now: number; log?: Logger }): Promise<void> {
  await underLayoutLock(pool, async (client) => {
    await createTables(client, opts.log);
    await ensurePartitions(client, opts.now);
  });
}
