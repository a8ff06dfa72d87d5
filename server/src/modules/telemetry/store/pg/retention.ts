// Retention on PostgreSQL: whole days go. Every daily partition of points and minute rollups that ends at or before
// the cutoff is dropped (a catalog change, whatever its rows: no delete, no vacuum), the default partitions' older rows
// (points stamped far in the past) and the older hour rollups are deleted. Drops wait LAYOUT_LOCK_TIMEOUT_MS at most
// for their table lock; one that cannot have it is left for the next run.
import type pg from 'pg';
import { ROLLUP_TABLE } from '../rollups.js';
import { retentionCutoff, type RetentionResult } from '../telemetry-store.js';
import { defaultPartition, LAYOUT_LOCK_TIMEOUT_MS, PARTITIONED, partitionsOf, underLayoutLock } from './layout.js';

export async function dropOlderThan(
  pool: pg.Pool,
  before: number,
  lockTimeoutMs = LAYOUT_LOCK_TIMEOUT_MS,
): Promise<RetentionResult> {
  const cutoff = retentionCutoff(before);
  const droppedPartitions = await underLayoutLock(
    pool,
    async (client) => {
      const dropped: string[] = [];
      for (const { table } of PARTITIONED)
        for (const p of await partitionsOf(client, table))
          if (p.to !== null && p.to <= cutoff) {
            await client.query(`drop table ${p.name}`);
            dropped.push(p.name);
          }
      return dropped;
    },
    lockTimeoutMs,
  );
  let deletedRows = 0;
  for (const { table, column } of PARTITIONED)
    deletedRows +=
      (await pool.query(`delete from ${defaultPartition(table)} where ${column} < $1`, [cutoff])).rowCount ?? 0;
  deletedRows += (await pool.query(`delete from ${ROLLUP_TABLE.hour} where bucket_ts < $1`, [cutoff])).rowCount ?? 0;
  return { cutoff, droppedPartitions, deletedRows };
}
