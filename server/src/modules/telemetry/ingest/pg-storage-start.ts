// The telemetry storage on PostgreSQL as the pipeline starts it: the telemetry store (its layout and the coming days'
// partitions, made at open), this gateway's name as the rollup writer, every series loaded with its latest value, the
// states and the reads. No journal, no writer thread, no compaction: a batch goes straight into the partitioned table
// in one transaction on a pooled connection, and every gateway's reads see it. The store's upkeep (partitions of the
// coming days) runs every hour while the pipeline is open.
//
// No rollup repair after a crash: a gateway that dies loses the rollup deltas it had not merged yet (a few seconds'
// worth, rollupFlushMs), as a SQLite gateway with BUS=nats does. Rebuilding minutes from the points is only right when
// no other writer has deltas of those minutes in flight, which a scale-out of gateways sharing the database cannot
// promise (docs/decisions/telemetry-postgres.md).
import type pg from 'pg';
import { newOrigin } from '../../../platform/bus/subjects.js';
import type { Logger } from '../../../platform/log.js';
import { storeTelemetryQuery } from '../read/query.js';
import type { SeriesView } from '../read/reads.js';
import { openPgSeriesRegistry } from '../store/pg/series.js';
import { pgStatesStore } from '../store/pg/states.js';
import { openPgTelemetryStore } from '../store/pg/store.js';
import { createRollupKeeper } from '../store/rollups.js';
import { MAINTAIN_EVERY_MS } from '../store/telemetry-store.js';

/** a writer's row older than this belongs to a gateway gone for good */
const STALE_WRITER_ROW_MS = 7 * 86_400_000;

export interface PgStorageStartOptions {
  pool: pg.Pool;
  log: Logger;
  now: () => number;
  maxSeriesPerDevice: number;
  /** how often the store's upkeep runs (default hourly) */
  maintainEveryMs?: number;
}

export async function startPgTelemetryStorage(o: PgStorageStartOptions) {
  const { pool, log, now } = o;
  const store = await openPgTelemetryStore(pool, { now, log });
  // this process's name on the bus and as the rollup writer (telemetry_writer_state, written with each merge)
  const origin = newOrigin();
  const rollups = createRollupKeeper(origin);
  const series = await openPgSeriesRegistry(pool, {
    maxSeriesPerDevice: o.maxSeriesPerDevice,
    now,
    points: store.points,
    log,
  });
  await pool.query('delete from telemetry_writer_state where updated_at < $1', [now() - STALE_WRITER_ROW_MS]);
  const seriesOfDevice = async (appId: number, deviceId: number) =>
    (
      await pool.query<SeriesView>({
        name: 'tele_series_of_device',
        text: `select id, device_id as "deviceId", sensor, configtype, param, subparam, datatype from telemetry_series
               where app_id = $1 and device_id = $2
               order by sensor collate "C", configtype collate "C", param collate "C", subparam collate "C"`,
        values: [appId, deviceId],
      })
    ).rows;
  const upkeep = setInterval(
    () =>
      void store
        .maintain()
        .catch((err) => log.warn(`telemetry partitions: upkeep failed, tried again in an hour: ${err}`)),
    o.maintainEveryMs ?? MAINTAIN_EVERY_MS,
  );
  upkeep.unref();

  return {
    engine: 'postgres' as const,
    store,
    origin,
    executor: store.executor,
    recent: null,
    series,
    rollups,
    states: pgStatesStore(pool),
    query: storeTelemetryQuery({ store, seriesOfDevice, series, rollups }),
    dropOlderThan: (before: number) => store.dropOlderThan(before),
    /** the writer closed with every delta merged: its row goes (nothing reads its generation any more) */
    async closedCleanly(): Promise<void> {
      if (rollups.hasPending) return;
      await pool
        .query('delete from telemetry_writer_state where writer = $1', [origin])
        .catch((err) => log.warn(`telemetry writer row not removed: ${err}`));
    },
    async close(): Promise<void> {
      clearInterval(upkeep);
      await store.close();
    },
  };
}
