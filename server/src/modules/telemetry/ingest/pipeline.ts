// The ingest pipeline: broker message → device (resolver) → family adapter → series → bus `tele.<app>.<device>` (or,
// PostgreSQL + NATS, straight on) → batching writer (points, states, rollups, latest values) → committed listeners
// (live fan-out, rules). Counts every dropped message per device. Presence (online/offline) is the device registry's
// alone (devices.broker.ts), not tracked here. Nothing here throws at the broker.
//
// This file assembles the parts: `storage-start.ts` (the storage as it starts: layout, journal replay, crash repair,
// the writer's executor), `message-ingest.ts` (one message's way in), `acks.ts` (acknowledgements held until stored),
// `committed.ts` (commits to listeners, shared across gateways over NATS), the writer (`store/writer.ts`),
// `backpressure.ts` and `rejects.ts`.
import type pg from 'pg';
import type { Bus } from '../../../platform/bus/types.js';
import type { Logger } from '../../../platform/log.js';
import type { AckRelease, Broker, MqttIdentity } from '../../../platform/mqtt/types.js';
import type { StatesStore } from '../../states/states.store.js';
import { MAX_PAYLOAD_BYTES, type DeviceResolver } from '../../devices/families/index.js';
import type { TelemetryReads } from '../read/reads.js';
import type { TelemetryQuery } from '../read/query.js';
import type { RollupKeeper } from '../store/rollups.js';
import type { SeriesInfo, SeriesRegistry } from '../store/series.js';
import type { BatchExecutor } from '../store/writer-thread.js';
import type { RetentionResult } from '../store/telemetry-store.js';
import { startRetentionJob } from '../store/retention-job.js';
import type { RecentPoints } from '../read/recent.js';
import type { PointReads } from '../read/point-reads.js';
import { createTelemetryWriter, type CommittedTelemetry, type TelemetryMessage } from '../store/writer.js';
import { createHeldAcks } from './acks.js';
import { Backpressure } from './backpressure.js';
import { createCommittedFanOut, type CommittedListener } from './committed.js';
import { createMessageIngest, type IngestOutcome } from './message-ingest.js';
import { createRemoteAcks } from './remote-acks.js';
import { IngestRejects, type DeviceRejects } from './rejects.js';
import { startSqlitePipelineStorage, type SqliteDatabase } from './storage-start.js';
import { startPgTelemetryStorage } from './pg-storage-start.js';

export type { DeviceRejects } from './rejects.js';
export type { IngestOutcome } from './message-ingest.js';
export type { CommittedListener } from './committed.js';

/**
 * Gateways storing locally: what a stored QoS 1/2 message's acknowledgement still waits for (the rule writes of its
 * evaluation), or null when nothing; a rejection lets it go unacknowledged (its device sends it again).
 */
export type AckGate = (appId: number, deviceId: number) => Promise<void> | null;

export interface TelemetryPipelineOptions extends PipelineOptions {
  sqlite: SqliteDatabase;
}

/** the pipeline on either engine (`openTelemetryPipeline`): SQLite's database, or PostgreSQL's pool */
export type OpenTelemetryPipelineOptions = PipelineOptions &
  ({ sqlite: SqliteDatabase; postgres?: undefined } | { postgres: pg.Pool; sqlite?: undefined });

interface PipelineOptions {
  log: Logger;
  /** when given, normalised messages travel on `tele.<app>.<device>` and the writer consumes them (queue group) */
  bus?: Bus;
  resolver?: DeviceResolver | null;
  now?: () => number;
  maxPayloadBytes?: number;
  /** SQLite: writes on a worker thread with its own connection (default: yes for a database file; in memory inline) */
  writerThread?: boolean;
  /** longest a point waits before its batch is handed to the writer (default 5 ms) */
  flushIntervalMs?: number;
  /** most points in one transaction (default 20,000) */
  maxBatchPoints?: number;
  /** queue bound beyond which QoS 0 is shed (default 200,000 points ≈ 3 s of the target rate, ~30 MB) */
  maxQueuedPoints?: number;
  /** bound for acknowledged QoS 1 messages (default 2 × maxQueuedPoints) */
  hardMaxQueuedPoints?: number;
  /** how often rollup deltas are merged into the rollup tables (default 5,000 ms: at 15,000 series ~6,000 upserts/s) */
  rollupFlushMs?: number;
  /** SQLite: points are journaled and compacted in rounds this often (default 5,000 ms; see writer.ts). Not with NATS. */
  compactEveryMs?: number;
  /** a device cannot create more series than this (default 1,000) */
  maxSeriesPerDevice?: number;
  /** device-stated times further in the future than this fall back to the receive time (default 5 min) */
  futureToleranceMs?: number;
  /** device-stated times older than this fall back to the receive time (default 400 days) */
  maxAgeMs?: number;
  /**
   * telemetry kept this many days (points and rollups of older UTC days dropped: whole partitions on PostgreSQL);
   * 0 or unset keeps everything (TELEMETRY_RETENTION_DAYS)
   */
  retentionDays?: number;
  /** how often retention runs (default hourly, the first run a minute after the start) */
  retentionEveryMs?: number;
}

/** the pipeline on either engine */
export interface EngineTelemetryPipeline {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * PostgreSQL + NATS: this gateway stores what its own broker received and acknowledges after its own commit (no
   * `tele.>` hop); else the writer takes `tele.>` (in process, or SQLite + NATS: one gateway of the queue group).
   */
  readonly storesLocally: boolean;
  /** storing locally: a stored message's acknowledgement also waits for what `gate` answers (rules.module.ts) */
  gateAcks(gate: AckGate | null): void;
  /** listens to the broker's message events, and pauses its reads while the writer is behind */
  attachBroker(broker: Pick<Broker, 'on'> & Partial<Pick<Broker, 'setReadPaused'>>): void;
  /** the device registry's resolver; null → no device is known and nothing is ingested */
  useResolver(resolver: DeviceResolver | null): void;
  /**
   * One MQTT message from an authorised client. A queued QoS 1 or 2 message takes a `hold` on its acknowledgement and
   * lets it go once its batch committed (docs/decisions/ingest.md); a refused one (not data to keep) is acknowledged at
   * once, as before. The outcome is a promise when the device's row had to be read first (the resolver's miss), or
   * when an earlier message of the same client still waits for one (a client's messages keep their order).
   */
  ingest(
    identity: MqttIdentity,
    topic: string,
    payload: Buffer,
    qos?: 0 | 1 | 2,
    hold?: () => AckRelease,
  ): IngestOutcome | Promise<IngestOutcome>;
  /**
   * committed messages (only what was stored, `local` when this gateway stored it), for live fan-out and rules;
   * returns the unsubscribe
   */
  subscribe(listener: CommittedListener): () => void;
  /** other gateways' commits may have been missed (the bus reconnected) and the latest values were read again: what
   * was computed from them is to be computed afresh; returns the unsubscribe */
  onMended(listener: () => void): () => void;
  /** series by id (sensor, configtype, param, subparam, datatype, latest) for listeners */
  series(id: number): SeriesInfo | undefined;
  /**
   * Grows whenever this process comes to know a series (it created one, or another gateway's commit named one): a
   * reader that remembers absent series forgets them when it moves.
   */
  readonly seriesLearnt: number;
  /** SQLite only (null on PostgreSQL): synchronous reads; the engine-neutral ones are `query` */
  reads: TelemetryReads | null;
  /** the reads on either engine, asynchronous: series by key, latest values, points, rollups (read/query.ts) */
  query: TelemetryQuery;
  /** SQLite only (null on PostgreSQL): raw point reads, the clustered table merged with the points not compacted */
  points: PointReads | null;
  /** device states, asynchronous on both engines (routes, live channels, rules) */
  states: StatesStore;
  metrics(): Record<string, unknown>;
  /** rejected messages of one device */
  rejectsOf(deviceId: number): DeviceRejects | undefined;
  /** commits everything queued so far and, unless `compact` is false, compacts it into the clustered table */
  flush(opts?: { compact?: boolean }): Promise<void>;
  /** stops ingesting, commits everything queued and every rollup delta; idempotent */
  close(): Promise<void>;
}

/** the pipeline on SQLite (`createTelemetryPipeline`): its synchronous reads are there */
export interface TelemetryPipeline extends EngineTelemetryPipeline {
  reads: TelemetryReads;
  points: PointReads;
}

/** what the pipeline needs of the storage as it started, on either engine */
interface PipelineStorage<R, P> {
  engine: 'sqlite' | 'postgres';
  origin: string;
  executor: BatchExecutor;
  series: SeriesRegistry;
  rollups: RollupKeeper;
  /** the journal's memory side (SQLite with one writer), else null */
  recent: RecentPoints | null;
  storedAt?: (seriesId: number, ts: number) => boolean;
  states: StatesStore;
  query: TelemetryQuery;
  reads: R;
  points: P;
  /** the writer closed with every delta merged */
  closedCleanly(): void | Promise<void>;
  /** drops the points and rollups of the UTC days before the one `before` falls in (the telemetry store's retention) */
  dropOlderThan(before: number): Promise<RetentionResult>;
  /** stops what the storage runs itself (PostgreSQL's hourly upkeep) */
  close?(): Promise<void>;
}

/**
 * The pipeline on the engine the options name: `{ sqlite }` is exactly `createTelemetryPipeline`; `{ postgres }` (the
 * pool of platform/db/postgres.ts `openPostgres`) writes through the PostgreSQL telemetry store (no journal, no writer
 * thread, no compaction), its series, states and reads on PostgreSQL (docs/decisions/telemetry-postgres.md).
 */
export async function openTelemetryPipeline(opts: OpenTelemetryPipelineOptions): Promise<EngineTelemetryPipeline> {
  if (opts.sqlite) return createTelemetryPipeline(opts as TelemetryPipelineOptions);
  const now = opts.now ?? Date.now;
  const storage = await startPgTelemetryStorage({
    pool: opts.postgres!,
    log: opts.log,
    now,
    maxSeriesPerDevice: opts.maxSeriesPerDevice ?? 1000,
  });
  return assemblePipeline(opts, { ...storage, reads: null, points: null });
}

export function createTelemetryPipeline(opts: TelemetryPipelineOptions): TelemetryPipeline {
  const storage = startSqlitePipelineStorage({
    sqlite: opts.sqlite,
    log: opts.log,
    now: opts.now ?? Date.now,
    journaled: opts.bus?.kind !== 'nats',
    writerThread: opts.writerThread ?? true,
    maxSeriesPerDevice: opts.maxSeriesPerDevice ?? 1000,
  });
  return assemblePipeline(opts, storage);
}

function assemblePipeline<R extends TelemetryReads | null, P extends PointReads | null>(
  opts: PipelineOptions,
  storage: PipelineStorage<R, P>,
): EngineTelemetryPipeline & { reads: R; points: P } {
  const { log, bus } = opts;
  const now = opts.now ?? Date.now;
  let resolver = opts.resolver ?? null;
  let closed = false;
  const nats = bus?.kind === 'nats';
  // PostgreSQL + NATS (gateways on separate hosts): each stores what its own broker received, acknowledging after its
  // own commit; SQLite + NATS (one host, one DATA_DIR) keeps the writer queue group (docs/decisions/ingest.md)
  const local = nats && storage.engine === 'postgres';
  const { origin, executor, series, rollups } = storage;
  // SQLite + NATS: another gateway may store the message; it reports the commit back to this one (remote-acks.ts)
  const acks = createHeldAcks(nats && !local ? createRemoteAcks(bus!, origin) : null);
  let ackGate: AckGate | null = null;
  /** storing locally: a stored message's acknowledgement waits for the gate too (the rules see the commit first) */
  function settleGated(m: TelemetryMessage, stored: boolean) {
    const release = m.release;
    if (!stored || !release || !ackGate) return acks.settle(m, stored);
    m.release = undefined;
    // after this commit's listeners ran (onCommit follows onSettled in the same turn): the rules queued their writes
    queueMicrotask(() => {
      const waiting = ackGate?.(m.appId, m.deviceId);
      if (!waiting) release(true);
      else
        waiting.then(
          () => release(true),
          () => release(false),
        );
    });
  }
  const committed = createCommittedFanOut({
    log,
    series,
    share: nats ? bus! : null,
    origin,
    closing: () => closed,
  });
  const rejects = new IngestRejects(now);
  const maxQueued = opts.maxQueuedPoints ?? 200_000;
  const writer = createTelemetryWriter({
    executor,
    series,
    rollups,
    log,
    now,
    flushIntervalMs: opts.flushIntervalMs ?? 5,
    maxBatchPoints: opts.maxBatchPoints ?? 20_000,
    maxQueuedPoints: maxQueued,
    hardMaxQueuedPoints: opts.hardMaxQueuedPoints ?? maxQueued * 2,
    rollupFlushMs: opts.rollupFlushMs ?? 5000,
    recent: storage.recent,
    storedAt: storage.storedAt,
    compactEveryMs: opts.compactEveryMs,
    onStatesRefused: (deviceId, count) => void rejects.count('state_limit', deviceId, 0, count),
    onSettled: local ? settleGated : acks.settle,
    onCommit: committed.committed,
    keepResent: local,
  });
  // points and rollups older than the kept days, dropped hourly (off unless retentionDays is set)
  const retention =
    opts.retentionDays && opts.retentionDays > 0
      ? startRetentionJob({
          days: opts.retentionDays,
          dropOlderThan: storage.dropOlderThan,
          now,
          log,
          everyMs: opts.retentionEveryMs,
          firstAfterMs: opts.retentionEveryMs,
        })
      : undefined;
  const backpressure = new Backpressure(
    () => writer.backlog,
    maxQueued,
    () => closed,
  );

  let refusedMessages = 0;
  /** a message into the writer's queue; refused (the writer far behind): never acknowledged */
  function enqueue(m: TelemetryMessage) {
    if (writer.enqueue(m) === 'refused') {
      refusedMessages++;
      // never acknowledged: its connection is closed and the device sends it again
      acks.settle(m, false);
      if (refusedMessages % 1000 === 1)
        log.warn(`telemetry writer behind: ${writer.queuedPoints} points queued, messages refused`);
    }
    backpressure.relieve();
  }
  // with a bus, the writer takes its messages from `tele.>` (one gateway of the queue group each, over NATS); a gateway
  // storing locally hands them straight to its own writer
  const subscription = local
    ? undefined
    : bus?.subscribe<TelemetryMessage>('tele.>', (msg) => enqueue(msg.data), {
        queue: 'telemetry-writer',
      });

  const messages = createMessageIngest({
    log,
    now,
    maxPayloadBytes: opts.maxPayloadBytes ?? MAX_PAYLOAD_BYTES,
    resolver: () => resolver,
    closed: () => closed,
    rejects,
    normalising: {
      series,
      futureToleranceMs: opts.futureToleranceMs ?? 5 * 60_000,
      maxAgeMs: opts.maxAgeMs ?? 400 * 86_400_000,
      rejectPoint: (reason, deviceId) => void rejects.count(reason, deviceId, 1),
    },
    acks,
    // the subject is kept with the device's context: built once, and its hash with it
    deliver:
      bus && !local ? (m, ctx) => bus.publish((ctx.teleSubject ??= `tele.${ctx.appId}.${ctx.deviceId}`), m) : enqueue,
  });
  const { ingest } = messages;

  return {
    engine: storage.engine,
    storesLocally: local,
    gateAcks(gate) {
      ackGate = gate;
    },
    attachBroker(broker) {
      if (broker.setReadPaused) backpressure.attach(broker as Pick<Broker, 'setReadPaused'>);
      broker.on('message', (identity, topic, payload, qos, hold) => void ingest(identity, topic, payload, qos, hold));
    },
    useResolver(r) {
      resolver = r;
    },
    ingest,
    subscribe: committed.subscribe,
    onMended: committed.onMended,
    series: (id) => series.byId(id),
    get seriesLearnt() {
      return series.learnt;
    },
    reads: storage.reads,
    query: storage.query,
    points: storage.points,
    states: storage.states,
    rejectsOf: (deviceId) => rejects.of(deviceId),
    metrics() {
      return {
        read_pauses: backpressure.pauses,
        ...messages.counters,
        refused_messages: refusedMessages,
        ...rejects.metrics(),
        ...writer.stats,
        queued_points: writer.queuedPoints,
        pressured: writer.pressured,
        reads_paused: backpressure.paused,
        lora_events: { ...messages.loraEvents },
        series_cached: series.size,
        series_created: series.stats.created,
        series_create_ms: Math.round(series.stats.create_ms),
        series_max_create_ms: series.stats.max_create_ms,
        pending_rollup_buckets: rollups.pendingBuckets,
        ...acks.metrics(),
        ...(executor.checkpoints ?? {}),
      };
    },
    async flush(o) {
      // messages waiting for their new series (PostgreSQL) are handed on first
      await messages.settled();
      if (bus) await bus.flush();
      await writer.flush(o);
    },
    async close() {
      if (closed) return;
      closed = true;
      backpressure.close();
      retention?.stop();
      // messages already published on an in-process bus are delivered before the writer closes
      if (bus) await bus.flush().catch((err) => log.error('bus flush failed', err));
      await new Promise((r) => setImmediate(r));
      await messages.settled();
      subscription?.unsubscribe();
      await writer.close();
      acks.close();
      // closed cleanly: no repair at the next start (a writer that gave up with deltas still pending keeps its row)
      await storage.closedCleanly();
      await storage.close?.();
      committed.close();
    },
  };
}
