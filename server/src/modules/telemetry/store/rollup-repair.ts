// Rollups after a crash. Rollup deltas reach the tables every few seconds, after their points (rollups.ts), so a
// process that stops without closing loses the deltas of its last seconds: the rollups would undercount those points
// for good. Each journaled writer keeps a row in telemetry_writer_state from its start until it closes cleanly; at the
// next start, a row still there marks a crash, and the rollups of the minutes around it are rebuilt from the stored
// points (the journal replayed first): every minute bucket from REPAIR_MARGIN_MS before the row's last durable
// rollup write (or the writer's start) on, then every hour bucket from its minutes.
import type Database from 'better-sqlite3';
import { BUCKET_MS, bucketOf, ROLLUP_TABLE } from './rollups.js';
import { ROLLUP_DATATYPES } from '../datatypes.js';

/**
 * How far before the crashed writer's last durable rollup write the minutes are rebuilt: its last round's deltas
 * (taken up to the round period, 5 s, before that write), and device clocks a little behind the gateway's. A point
 * committed in those last seconds with a timestamp older than this (a device sending its backlog) stays uncounted.
 */
export const REPAIR_MARGIN_MS = 2 * 60_000;

export interface RollupRepair {
  /** writers that had not closed (their rows are removed) */
  writers: string[];
  /** the first minute rebuilt (epoch ms) */
  from: number;
  minuteRows: number;
  hourRows: number;
  ms: number;
}

/**
 * Rebuilds the rollups a crashed writer may have left short, and forgets that writer; null when every writer closed
 * cleanly (nothing to do). `self`: this process's writer, whose row is not a crash. One transaction.
 */
export function repairRollupsAfterCrash(sqlite: Database.Database, self?: string): RollupRepair | null {
  const crashed = sqlite
    .prepare('SELECT writer, updated_at AS at FROM telemetry_writer_state WHERE writer IS NOT ?')
    .all(self ?? null) as { writer: string; at: number }[];
  if (crashed.length === 0) return null;
  const started = performance.now();
  const from = bucketOf(Math.min(...crashed.map((c) => c.at)) - REPAIR_MARGIN_MS, BUCKET_MS.minute);
  const hourFrom = bucketOf(from, BUCKET_MS.hour);
  const types = ROLLUP_DATATYPES.map((t) => `'${t}'`).join(', ');
  const minute = ROLLUP_TABLE.minute;
  const hour = ROLLUP_TABLE.hour;
  const out = sqlite
    .transaction(() => {
      // every series' rows from the bucket on: a range of the clustered key per series, not a scan of the whole history
      const eachSeries = 'series_id IN (SELECT id FROM telemetry_series) AND bucket_ts >= ?';
      sqlite.prepare(`DELETE FROM ${minute} WHERE ${eachSeries}`).run(from);
      // per series (CROSS JOIN keeps the series outer: a seek into the clustered points each), then first and last read
      // back at their timestamps
      const minuteRows = sqlite
        .prepare(
          `INSERT INTO ${minute} (series_id, bucket_ts, count, sum, min, max, first, first_ts, last, last_ts)
         SELECT g.sid, g.b, g.n, g.s, g.lo, g.hi,
           (SELECT num FROM telemetry_points WHERE series_id = g.sid AND ts = g.fts), g.fts,
           (SELECT num FROM telemetry_points WHERE series_id = g.sid AND ts = g.lts), g.lts
         FROM (
           SELECT p.series_id AS sid, p.ts - (p.ts % ${BUCKET_MS.minute}) AS b, count(*) AS n, sum(p.num) AS s, min(p.num) AS lo, max(p.num) AS hi, min(p.ts) AS fts, max(p.ts) AS lts
           FROM telemetry_series s CROSS JOIN telemetry_points p ON p.series_id = s.id AND p.ts >= ?
           WHERE s.datatype IN (${types}) AND p.num IS NOT NULL
           GROUP BY p.series_id, b
         ) g`,
        )
        .run(from).changes;
      sqlite.prepare(`DELETE FROM ${hour} WHERE ${eachSeries}`).run(hourFrom);
      // an hour is the merge of its minutes (those before `from` were complete)
      const hourRows = sqlite
        .prepare(
          `INSERT INTO ${hour} (series_id, bucket_ts, count, sum, min, max, first, first_ts, last, last_ts)
         SELECT g.sid, g.b, g.n, g.s, g.lo, g.hi,
           (SELECT first FROM ${minute} WHERE series_id = g.sid AND bucket_ts = g.fts - (g.fts % ${BUCKET_MS.minute})), g.fts,
           (SELECT last FROM ${minute} WHERE series_id = g.sid AND bucket_ts = g.lts - (g.lts % ${BUCKET_MS.minute})), g.lts
         FROM (
           SELECT series_id AS sid, bucket_ts - (bucket_ts % ${BUCKET_MS.hour}) AS b, sum(count) AS n, sum(sum) AS s, min(min) AS lo, max(max) AS hi, min(first_ts) AS fts, max(last_ts) AS lts
           FROM ${minute} WHERE ${eachSeries}
           GROUP BY series_id, b
         ) g`,
        )
        .run(hourFrom).changes;
      const forget = sqlite.prepare('DELETE FROM telemetry_writer_state WHERE writer = ?');
      for (const c of crashed) forget.run(c.writer);
      return { minuteRows, hourRows };
    })
    .immediate();
  return { writers: crashed.map((c) => c.writer), from, ...out, ms: Math.round(performance.now() - started) };
}
