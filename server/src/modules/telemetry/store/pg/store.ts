// The telemetry store on PostgreSQL (telemetry-store.ts): the layout made at open, the executor, the reads, retention,
// and the upkeep that partitions the coming days. The pool comes from openPostgres (platform/db/postgres.ts), whose
// type parsers read bigint as numbers; it stays its owner's to close.
import type pg from 'pg';
import '../../../../platform/db/postgres.js';
import type { Logger } from '../../../../platform/log.js';
import type { TelemetryStore } from '../telemetry-store.js';
import { pgExecutor, type PgExecutorOptions } from './executor.js';
import { ensurePartitions, ensurePgLayout, LAYOUT_LOCK_TIMEOUT_MS, underLayoutLock } from './layout.js';
import { pgPointWindows, pgRollupWindows, pgSeriesLookup } from './reads.js';
import { dropOlderThan } from './retention.js';

export interface PgStoreOptions extends PgExecutorOptions {
  now?: () => number;
  log?: Logger;
}

export async function openPgTelemetryStore(pool: pg.Pool, opts: PgStoreOptions = {}): Promise<TelemetryStore> {
  const now = opts.now ?? Date.now;
  await ensurePgLayout(pool, { now: now(), log: opts.log });
  return {
    engine: 'postgres',
    executor: pgExecutor(pool, opts),
    points: pgPointWindows(pool),
    series: pgSeriesLookup(pool),
    rollups: pgRollupWindows(pool),
    dropOlderThan: (before) => dropOlderThan(pool, before),
    async maintain() {
      const created = await underLayoutLock(pool, (client) => ensurePartitions(client, now()), LAYOUT_LOCK_TIMEOUT_MS);
      if (created.length) opts.log?.info(`telemetry partitions created: ${created.join(', ')}`);
    },
    close: async () => {},
  };
}
