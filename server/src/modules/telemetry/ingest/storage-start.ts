// The telemetry storage as the pipeline starts it: the clustered layout, the journal a stopped process left moved into
// it, the rollups a crashed writer left short rebuilt, this writer's row (telemetry_writer_state), the series and
// states stores, and where batches are written (the writer thread for a database file, inline for an in-memory one).
// The order matters: the event loop's write gate is installed before any statement of this process is prepared.
import type Database from 'better-sqlite3';
import type { Logger } from '../../../platform/log.js';
import { asyncStates, createStatesStore } from '../../states/states.store.js';
import { createPointReads } from '../read/point-reads.js';
import { sqliteTelemetryQuery } from '../read/query.js';
import { createTelemetryReads } from '../read/reads.js';
import { createSeriesKeys } from '../read/series-keys.js';
import { createRecentPoints } from '../read/recent.js';
import { repairRollupsAfterCrash } from '../store/rollup-repair.js';
import { createRollupKeeper } from '../store/rollups.js';
import { createSeriesRegistry } from '../store/series.js';
import { ensureClusteredLayout } from '../store/storage.js';
import { replayJournal } from '../store/write-batch.js';
import { sqliteTelemetryStore } from '../store/sqlite-store.js';
import { announceWrites, inlineExecutor, threadExecutor } from '../store/writer-thread.js';
import { newOrigin } from '../../../platform/bus/subjects.js';

/** a writer's row older than this is a crash nobody will repair any more */
const STALE_WRITER_ROW_MS = 7 * 86_400_000;

export interface StorageStartOptions {
  sqlite: Database.Database;
  log: Logger;
  now: () => number;
  /** one writer per database: points are journaled and served from memory until compacted (not with NATS) */
  journaled: boolean;
  /** writes on a worker thread (a database file only) */
  writerThread: boolean;
  maxSeriesPerDevice: number;
}

export function startTelemetryStorage(o: StorageStartOptions) {
  const { sqlite, log, now, journaled } = o;
  const threaded = o.writerThread && !sqlite.memory && sqlite.name !== '' && sqlite.name !== ':memory:';
  // the event loop's own writes go first: the thread waits (briefly) while one is running. Installed before any of
  // this process's statements are prepared (series, states, the registry and the services come after the pipeline).
  const gate = threaded ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
  if (gate) announceWrites(sqlite, gate);
  ensureClusteredLayout(sqlite, log);
  // With one writer per database (not scale-out: another gateway's reads cannot see this one's memory), points are
  // journaled and served from memory until compacted. What a stopped process left in the journal is moved first.
  const replayed = replayJournal(sqlite);
  if (replayed > 0) log.info(`telemetry journal: ${replayed} points moved into the clustered table`);
  const recent = journaled ? createRecentPoints() : null;
  const points = createPointReads(sqlite, recent);
  const stored = sqlite.prepare('SELECT 1 FROM telemetry_points WHERE series_id = ? AND ts = ?').pluck();
  const series = createSeriesRegistry(sqlite, { maxSeriesPerDevice: o.maxSeriesPerDevice, now, points });
  // this process's name on the bus and as the rollup writer (telemetry_writer_state)
  const origin = newOrigin();
  const rollups = createRollupKeeper(origin);
  if (journaled) {
    // a writer that stopped without closing lost its last seconds of rollup deltas: those minutes are rebuilt
    const repair = repairRollupsAfterCrash(sqlite, origin);
    if (repair)
      log.warn(
        `telemetry rollups: ${repair.writers.length} writer(s) stopped without closing; rollups from ${new Date(repair.from).toISOString()} rebuilt from the stored points (${repair.minuteRows} minute and ${repair.hourRows} hour rows, ${repair.ms} ms)`,
      );
    // this writer's row, from now until it closes with every delta merged: still there at the next start, it says a crash
    sqlite
      .prepare(
        'INSERT INTO telemetry_writer_state (writer, rollup_generation, updated_at) VALUES (?, 0, ?) ON CONFLICT (writer) DO NOTHING',
      )
      .run(origin, Date.now());
  }
  const states = createStatesStore(sqlite);
  // a writer that crashed a week ago left its row: nobody reads it any more
  sqlite.prepare('DELETE FROM telemetry_writer_state WHERE updated_at < ?').run(now() - STALE_WRITER_ROW_MS);
  const executor = threaded ? threadExecutor(sqlite.name, log, { gate }) : inlineExecutor(sqlite);
  // the checkpoint thread copies the WAL: the event loop's own commits must not run a checkpoint either
  if (executor.checkpoints) sqlite.pragma('wal_autocheckpoint = 0');

  return {
    origin,
    executor,
    recent,
    points,
    series,
    rollups,
    states,
    /** with a journal: whether the clustered table holds (series, ts) */
    storedAt: (seriesId: number, ts: number) => stored.get(seriesId, ts) !== undefined,
    /** the writer closed with every delta merged: its row goes, so the next start repairs nothing */
    closedCleanly(): void {
      if (journaled && !rollups.hasPending)
        sqlite.prepare('DELETE FROM telemetry_writer_state WHERE writer = ?').run(origin);
    },
  };
}

export type TelemetryStorage = ReturnType<typeof startTelemetryStorage>;

/** SQLite's database handle, for those that name it without working on it */
export type SqliteDatabase = Database.Database;

/** the storage as the pipeline takes it on SQLite: with its synchronous reads, and `query`/`states` asynchronous */
export function startSqlitePipelineStorage(o: StorageStartOptions) {
  const started = startTelemetryStorage(o);
  const reads = createTelemetryReads(o.sqlite, {
    series: started.series,
    rollups: started.rollups,
    points: started.points,
  });
  // retention through the telemetry store's SQLite side: rows series by series, 500 series a transaction
  const retention = sqliteTelemetryStore(o.sqlite, { executor: started.executor, points: started.points });
  return {
    ...started,
    engine: 'sqlite' as const,
    states: asyncStates(started.states),
    reads,
    query: sqliteTelemetryQuery(reads, createSeriesKeys(o.sqlite), started.points),
    dropOlderThan: (before: number) => retention.dropOlderThan(before),
  };
}
