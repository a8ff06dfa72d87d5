// The telemetry store contract on PostgreSQL, and what only PostgreSQL has: partitions (created ahead, dropped by
// retention), a crash after a commit, a server stopped and started again, a connection lost inside a batch.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../../../platform/db/postgres.js';
import { isStorageFault } from '../../../platform/db/storage-fault.js';
import {
  hasPostgres,
  SHARED_PG_ENV,
  startPostgres,
  testDatabase,
  type Postgres,
} from '../../../platform/db/testing/postgres.js';
import { createLogger } from '../../../platform/log.js';
import { partitionName, partitionsOf, type Partition } from './pg/layout.js';
import { STATES_LOCK } from './pg/states.js';
import { openPgTelemetryStore } from './pg/store.js';
import { createDerivedTables } from './pg/testing/tables.js';
import { createRollupKeeper } from './rollups.js';
import type { SeriesRegistry } from './series.js';
import {
  append,
  batchOf,
  message,
  num,
  telemetryStoreContract,
  type StoreUnderTest,
} from './telemetry-store.contract.js';
import { DAY_MS, type TelemetryStore } from './telemetry-store.js';
import { createTelemetryWriter } from './writer.js';

/** '?' placeholders as $n */
export const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

let seq = 0;

/**
 * A fresh database of the shared cluster whose default collation is ICU's root order (a < B < b), not byte order:
 * the store's text order must not depend on the database's collation.
 */
async function icuDatabase(): Promise<string> {
  const admin = process.env[SHARED_PG_ENV]!;
  const name = `tele_icu_${process.pid}_${++seq}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database "${name}" template template0 locale_provider icu icu_locale 'und' locale 'C'`);
  } finally {
    await client.end();
  }
  return admin.replace(/\/postgres$/, `/${name}`);
}

export async function pgUnderTest(url?: string): Promise<StoreUnderTest> {
  const { pool, close } = await openPostgres({ url: url ?? (await icuDatabase()), max: 4 });
  await createDerivedTables(pool);
  const store = await openPgTelemetryStore(pool);
  return {
    store,
    run: async (sql, params = []) => void (await pool.query(numbered(sql), params)),
    rows: async (sql, params = []) =>
      (await pool.query({ text: numbered(sql), values: params, rowMode: 'array' })).rows,
    async close() {
      await store.executor.close();
      await store.close();
      await close();
    },
  };
}

describe.skipIf(!hasPostgres)('PostgreSQL', () => {
  telemetryStoreContract('postgres', () => pgUnderTest());
});

const D0 = Date.UTC(2024, 2, 10);
const names = (parts: Partition[]) => parts.map((p) => p.name);

describe.skipIf(!hasPostgres)('telemetry on PostgreSQL: partitions', () => {
  let pool: pg.Pool;
  let closePool: () => Promise<void>;
  let clock = D0 + 5 * 3_600_000;
  let store: TelemetryStore;
  beforeEach(async () => {
    ({ pool, close: closePool } = await openPostgres({ url: await testDatabase(), max: 4 }));
    clock = D0 + 5 * 3_600_000;
    store = await openPgTelemetryStore(pool, { now: () => clock });
  });
  afterEach(async () => {
    await store.executor.close();
    await closePool();
  });

  it('partitions today and the next two days at open and the day after from the upkeep, once', async () => {
    const days = (table: 'telemetry_points' | 'telemetry_rollup_minute', ...d: number[]) => [
      `${table}_default`,
      ...d.map((k) => partitionName(table, D0 + k * DAY_MS)),
    ];
    expect(names(await partitionsOf(pool, 'telemetry_points'))).toEqual(days('telemetry_points', 0, 1, 2));
    expect(names(await partitionsOf(pool, 'telemetry_rollup_minute'))).toEqual(
      days('telemetry_rollup_minute', 0, 1, 2),
    );
    expect(partitionName('telemetry_points', D0)).toBe('telemetry_points_p20240310');
    clock += DAY_MS;
    await store.maintain();
    await store.maintain();
    expect(names(await partitionsOf(pool, 'telemetry_points'))).toEqual(days('telemetry_points', 0, 1, 2, 3));
    // a second gateway opening the same database lays out nothing twice
    await openPgTelemetryStore(pool, { now: () => clock });
    expect(names(await partitionsOf(pool, 'telemetry_rollup_minute'))).toEqual(
      days('telemetry_rollup_minute', 0, 1, 2, 3),
    );
    const [p] = await partitionsOf(pool, 'telemetry_points').then((ps) => ps.filter((x) => x.from === D0));
    expect(p).toEqual({ name: partitionName('telemetry_points', D0), from: D0, to: D0 + DAY_MS });
  });

  it('takes a point of any time (the default partition) and moves it into its day once that is partitioned', async () => {
    const far = D0 + 5 * DAY_MS + 7;
    const past = D0 - 400 * DAY_MS;
    await append(store, batchOf(1, [message([num(1, far, 1), num(1, past, 2), num(1, D0 + 1, 3)])]));
    const inDefault = async () =>
      (await pool.query({ text: 'select ts from telemetry_points_default order by ts', rowMode: 'array' })).rows;
    expect(await inDefault()).toEqual([[past], [far]]);
    clock = D0 + 4 * DAY_MS;
    await store.maintain();
    expect(await inDefault()).toEqual([[past]]);
    const day5 = partitionName('telemetry_points', D0 + 5 * DAY_MS);
    expect((await pool.query({ text: `select ts, num from ${day5}`, rowMode: 'array' })).rows).toEqual([[far, 1]]);
    expect(await store.points.oldest(1, past, far, 10)).toEqual([
      [past, 2, null],
      [D0 + 1, 3, null],
      [far, 1, null],
    ]);
  });

  it('retention drops whole partitions older than the cutoff day and keeps the newer points', async () => {
    const keeper = createRollupKeeper('w1');
    const points = [
      num(1, D0 - 30 * DAY_MS, 1),
      num(1, D0 + 10, 2),
      num(1, D0 + DAY_MS + 10, 3),
      num(1, D0 + 2 * DAY_MS, 4),
    ];
    for (const p of points) keeper.add(p.seriesId, p.ts, p.num!);
    await append(store, batchOf(1, [message(points)], keeper.snapshot()));
    const r = await store.dropOlderThan(D0 + 2 * DAY_MS + 3_600_000);
    expect(r.cutoff).toBe(D0 + 2 * DAY_MS);
    expect(r.droppedPartitions.sort()).toEqual(
      [
        partitionName('telemetry_points', D0),
        partitionName('telemetry_points', D0 + DAY_MS),
        partitionName('telemetry_rollup_minute', D0),
        partitionName('telemetry_rollup_minute', D0 + DAY_MS),
      ].sort(),
    );
    // the default partitions' old point and minute, and the old hours, deleted row by row
    expect(r.deletedRows).toBe(1 + 1 + 3);
    expect(names(await partitionsOf(pool, 'telemetry_points'))).toEqual([
      'telemetry_points_default',
      partitionName('telemetry_points', D0 + 2 * DAY_MS),
    ]);
    expect(await store.points.oldest(1, D0 - 100 * DAY_MS, D0 + 3 * DAY_MS, 10)).toEqual([[D0 + 2 * DAY_MS, 4, null]]);
    // a late point of a dropped day still lands (in the default partition), for the next retention to delete
    await append(store, batchOf(2, [message([num(1, D0 + 5, 9)])]));
    expect(await store.points.oldest(1, D0, D0 + 10, 10)).toEqual([[D0 + 5, 9, null]]);
  });

  it('rebuilds a plain telemetry_points (a migration derived from the SQLite schema) as a partitioned one, rows kept', async () => {
    const url = await testDatabase();
    const other = await openPostgres({ url, max: 2 });
    try {
      await other.pool.query(
        'create table telemetry_points (series_id bigint not null, ts bigint not null, num double precision, text text, primary key (series_id, ts))',
      );
      await other.pool.query(
        `insert into telemetry_points values (1, ${D0}, 1.5, null), (1, ${D0 - 9 * DAY_MS}, null, 'x')`,
      );
      const s = await openPgTelemetryStore(other.pool, { now: () => clock });
      const kind = await other.pool.query("select relkind from pg_class where relname = 'telemetry_points'");
      expect(kind.rows).toEqual([{ relkind: 'p' }]);
      expect(await s.points.oldest(1, D0 - 10 * DAY_MS, D0, 10)).toEqual([
        [D0 - 9 * DAY_MS, null, 'x'],
        [D0, 1.5, null],
      ]);
    } finally {
      await other.close();
    }
  });
});

describe.skipIf(!hasPostgres)('telemetry on PostgreSQL: failures', () => {
  it('fails a batch whose connection is lost inside its transaction, storing nothing of it; the same batch succeeds after', async () => {
    const url = await testDatabase();
    const t = await pgUnderTest(url);
    const other = await openPostgres({ url, max: 2 });
    const locker = await other.pool.connect();
    try {
      const keeper = createRollupKeeper('w1');
      keeper.add(1, 60_000, 1);
      const snapshot = keeper.snapshot();
      const batch = () =>
        batchOf(
          1,
          [message([num(1, 60_000, 1)], [{ key: 'k', value: '1', ts: 1 }], { appId: 1, deviceId: 77 })],
          snapshot,
        );
      // another session holds device 77's lock: the batch waits inside its transaction, rollups and points written
      await locker.query('select pg_advisory_lock($1, 77)', [STATES_LOCK]);
      const answer = append(t.store, batch()).then(
        () => null,
        (e: unknown) => e,
      );
      let pid: number | undefined;
      for (let i = 0; i < 500 && pid === undefined; i++) {
        const r = await other.pool.query<{ pid: number }>(
          "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'",
        );
        pid = r.rows[0]?.pid;
        if (pid === undefined) await new Promise((r) => setTimeout(r, 10));
      }
      expect(pid).toBeDefined();
      await other.pool.query('select pg_terminate_backend($1)', [pid]);
      const err = await answer;
      expect((err as { code?: string }).code).toBe('57P01');
      expect(isStorageFault(err)).toBe(true);
      await locker.query('select pg_advisory_unlock($1, 77)', [STATES_LOCK]);
      for (const table of ['telemetry_points', 'telemetry_rollup_minute', 'telemetry_writer_state', 'device_states'])
        expect(await t.rows(`select count(*) from ${table}`), table).toEqual([[0]]);
      const r = await append(t.store, batch());
      expect(Array.from(r.duplicates)).toEqual([]);
      expect(r.appliedStates).toHaveLength(1);
      expect(await t.rows('select count(*) from telemetry_points')).toEqual([[1]]);
    } finally {
      locker.release();
      await other.close();
      await t.close();
    }
  });

  describe('a cluster of its own (default fsync)', () => {
    let cluster: Postgres;
    let t: StoreUnderTest;
    beforeAll(async () => {
      cluster = await startPostgres();
      t = await pgUnderTest(await cluster.createDatabase());
    });
    afterAll(async () => {
      await t?.close();
      await cluster?.destroy();
    });

    it('keeps a committed batch through a crash (immediate restart)', async () => {
      const keeper = createRollupKeeper('w1');
      keeper.add(3, 120_000, 5);
      await append(
        t.store,
        batchOf(1, [message([num(3, 120_000, 5), num(4, 1, 1)], [{ key: 'k', value: '2', ts: 9 }])], keeper.snapshot()),
      );
      await cluster.restart('immediate');
      expect(await t.store.points.oldest(3, 0, 200_000, 10)).toEqual([[120_000, 5, null]]);
      expect((await t.store.rollups.read('minute', 3, 0, 200_000, 'w1')).generation).toBe(1);
      expect(await t.rows('select key, value from device_states')).toEqual([['k', '2']]);
    });

    it('fails a batch while PostgreSQL is down (a storage fault) and takes the same batch once it is back', async () => {
      const batch = () =>
        batchOf(2, [
          message([num(5, 1, 1), num(5, 2, 2)], [{ key: 'k5', value: '1', ts: 1 }], { appId: 1, deviceId: 5 }),
        ]);
      const points = () => batchOf(3, [message([num(6, 1, 1)])]);
      await cluster.stop();
      try {
        for (const b of [batch(), points()]) {
          const err = await append(t.store, b).then(
            () => null,
            (e: unknown) => e,
          );
          expect(err).toBeInstanceOf(Error);
          expect(isStorageFault(err)).toBe(true);
        }
      } finally {
        await cluster.start();
      }
      expect(Array.from((await append(t.store, batch())).duplicates)).toEqual([]);
      expect(Array.from((await append(t.store, points())).duplicates)).toEqual([]);
      expect(await t.store.points.latest([5, 6])).toEqual([
        [2, 2, null],
        [1, 1, null],
      ]);
    });

    it('the writer pauses on the outage and stores every queued message once PostgreSQL is back', async () => {
      const committed: number[] = [];
      const w = createTelemetryWriter({
        executor: t.store.executor,
        series: { byId: () => undefined } as unknown as SeriesRegistry,
        rollups: createRollupKeeper('w2'),
        log: createLogger('silent'),
        now: Date.now,
        flushIntervalMs: 1,
        maxBatchPoints: 1000,
        maxQueuedPoints: 10_000,
        hardMaxQueuedPoints: 20_000,
        rollupFlushMs: 60_000,
        onCommit: (batch) => committed.push(...batch.flatMap((c) => c.points.map((p) => p.ts))),
        recent: null,
      });
      await cluster.stop();
      try {
        for (let i = 1; i <= 5; i++) w.enqueue(message([num(7, i, i)]));
        const deadline = Date.now() + 10_000;
        while (w.stats.storage_faults < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(w.stats.storage_faulting).toBe(true);
        expect(w.stats.failed_points).toBe(0); // paused and retried, never given up
      } finally {
        await cluster.start();
      }
      await w.flush();
      expect(committed.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
      expect(w.stats.storage_faulting).toBe(false);
      await w.close();
    });
  });
});
