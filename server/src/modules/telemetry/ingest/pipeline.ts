// The ingest pipeline: broker message → device (resolver) → family adapter → series → bus `tele.<app>.<device>` →
// batching writer (points, states, rollups, latest values) → committed listeners (live fan-out, rules). Counts every
// dropped message per device. Presence (online/offline) is the device registry's alone (devices.broker.ts), not
// tracked here. Nothing here throws at the broker.
import type Database from 'better-sqlite3';
import type { Bus, BusSubscription } from '../../../platform/bus/types.js';
import type { Logger } from '../../../platform/log.js';
import type { AckRelease, Broker, MqttIdentity } from '../../../platform/mqtt/types.js';
import { createStatesStore, type StatesStore } from '../../states/states.store.js';
import {
  adaptMessage,
  MAX_PAYLOAD_BYTES,
  type DeviceResolver,
  type RejectReason,
} from '../../devices/families/index.js';
import { createTelemetryReads, type TelemetryReads } from '../read/reads.js';
import { createRollupKeeper } from '../store/rollups.js';
import { createSeriesRegistry, noteLatest, type SeriesInfo } from '../store/series.js';
import { ensureClusteredLayout } from '../store/storage.js';
import { createPointReads, type PointReads } from '../read/point-reads.js';
import { createRecentPoints } from '../read/recent.js';
import { replayJournal } from '../store/write-batch.js';
import { repairRollupsAfterCrash } from '../store/rollup-repair.js';
import { announceWrites, inlineExecutor, threadExecutor } from '../store/writer-thread.js';
import { createTelemetryWriter, type CommittedTelemetry, type TelemetryMessage } from '../store/writer.js';
import { createRemoteAcks } from './remote-acks.js';
import { Backpressure } from './backpressure.js';
import { IngestRejects, type DeviceRejects } from './rejects.js';
import { normalise, type NormaliseOptions } from './normalise.js';

export type { DeviceRejects } from './rejects.js';

/** the event kinds of ChirpStack v4's MQTT integration, counted one by one in `lora_events` (others as `other`) */
const LORA_EVENTS = new Set(['up', 'join', 'status', 'ack', 'txack', 'log', 'location', 'integration']);

export interface TelemetryPipelineOptions {
  sqlite: Database.Database;
  log: Logger;
  /** when given, normalised messages travel on `tele.<app>.<device>` and the writer consumes them (queue group) */
  bus?: Bus;
  resolver?: DeviceResolver | null;
  now?: () => number;
  maxPayloadBytes?: number;
  /** writes on a worker thread with its own connection (default: yes for a database file; an in-memory one is inline) */
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
  /** points are journaled and compacted in rounds this often (default 5,000 ms; see writer.ts). Not with NATS. */
  compactEveryMs?: number;
  /** a device cannot create more series than this (default 1,000) */
  maxSeriesPerDevice?: number;
  /** device-stated times further in the future than this fall back to the receive time (default 5 min) */
  futureToleranceMs?: number;
  /** device-stated times older than this fall back to the receive time (default 400 days) */
  maxAgeMs?: number;
}

export type IngestOutcome = 'queued' | 'ignored' | RejectReason;

export interface TelemetryPipeline {
  /** listens to the broker's message events, and pauses its reads while the writer is behind */
  attachBroker(broker: Pick<Broker, 'on'> & Partial<Pick<Broker, 'setReadPaused'>>): void;
  /** the device registry's resolver; null → no device is known and nothing is ingested */
  useResolver(resolver: DeviceResolver | null): void;
  /**
   * One MQTT message from an authorised client. A queued QoS 1 or 2 message takes a `hold` on its acknowledgement and
   * lets it go once its batch committed (docs/decisions/ingest.md); a refused one (not data to keep) is acknowledged at
   * once, as before.
   */
  ingest(
    identity: MqttIdentity,
    topic: string,
    payload: Buffer,
    qos?: 0 | 1 | 2,
    hold?: () => AckRelease,
  ): IngestOutcome;
  /** committed messages (only what was stored), for live fan-out and rules; returns the unsubscribe */
  subscribe(listener: (batch: CommittedTelemetry) => void): () => void;
  /** series by id (sensor, configtype, param, subparam, datatype, latest) for listeners */
  series(id: number): SeriesInfo | undefined;
  /**
   * Grows whenever this process comes to know a series (it created one, or another gateway's commit named one): a
   * reader that remembers absent series forgets them when it moves.
   */
  readonly seriesLearnt: number;
  reads: TelemetryReads;
  /** raw point reads (the clustered table merged with the points not yet compacted) */
  points: PointReads;
  states: StatesStore;
  metrics(): Record<string, unknown>;
  /** rejected messages of one device */
  rejectsOf(deviceId: number): DeviceRejects | undefined;
  /** commits everything queued so far and, unless `compact` is false, compacts it into the clustered table */
  flush(opts?: { compact?: boolean }): Promise<void>;
  /** stops ingesting, commits everything queued and every rollup delta; idempotent */
  close(): Promise<void>;
}

export function createTelemetryPipeline(opts: TelemetryPipelineOptions): TelemetryPipeline {
  const { sqlite, log, bus } = opts;
  const now = opts.now ?? Date.now;
  const maxPayload = opts.maxPayloadBytes ?? MAX_PAYLOAD_BYTES;
  let resolver = opts.resolver ?? null;
  let closed = false;

  const threaded = (opts.writerThread ?? true) && !sqlite.memory && sqlite.name !== '' && sqlite.name !== ':memory:';
  // the event loop's own writes go first: the thread waits (briefly) while one is running. Installed before any of
  // this process's statements are prepared (series, states, the registry and the services come after the pipeline).
  const gate = threaded ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
  if (gate) announceWrites(sqlite, gate);
  ensureClusteredLayout(sqlite, log);
  // With one writer per database (not scale-out: another gateway's reads cannot see this one's memory), points are
  // journaled and served from memory until compacted. What a stopped process left in the journal is moved first.
  const journaled = bus?.kind !== 'nats';
  const replayed = replayJournal(sqlite);
  if (replayed > 0) log.info(`telemetry journal: ${replayed} points moved into the clustered table`);
  const recent = journaled ? createRecentPoints() : null;
  const points = createPointReads(sqlite, recent);
  const storedAt = sqlite.prepare('SELECT 1 FROM telemetry_points WHERE series_id = ? AND ts = ?').pluck();
  const series = createSeriesRegistry(sqlite, { maxSeriesPerDevice: opts.maxSeriesPerDevice ?? 1000, now, points });
  // this process's name on the bus and as the rollup writer (telemetry_writer_state)
  const origin = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
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
  sqlite.prepare('DELETE FROM telemetry_writer_state WHERE updated_at < ?').run(now() - 7 * 86_400_000);
  const executor = threaded ? threadExecutor(sqlite.name, log, { gate }) : inlineExecutor(sqlite);
  // the checkpoint thread copies the WAL: the event loop's own commits must not run a checkpoint either
  if (executor.checkpoints) sqlite.pragma('wal_autocheckpoint = 0');
  const listeners = new Set<(b: CommittedTelemetry) => void>();

  function call<T>(set: Set<(v: T) => void>, v: T, what: string) {
    for (const fn of set) {
      try {
        fn(v);
      } catch (err) {
        log.error(`telemetry ${what} listener failed`, err);
      }
    }
  }

  /** the held acknowledgements of queued QoS 1 and 2 messages, let go when the writer settles them */
  const heldAcks = new WeakMap<TelemetryMessage, AckRelease>();
  // BUS=nats: another gateway may store the message; it reports the commit back to this one (remote-acks.ts)
  const remoteAcks = bus?.kind === 'nats' ? createRemoteAcks(bus, origin) : null;
  function settle(m: TelemetryMessage, stored: boolean) {
    if (m.ack) return remoteAcks?.settled(m.ack, stored);
    const release = heldAcks.get(m);
    if (!release) return;
    heldAcks.delete(m);
    release(stored);
  }
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
    recent,
    storedAt: (seriesId, ts) => storedAt.get(seriesId, ts) !== undefined,
    compactEveryMs: opts.compactEveryMs,
    onStatesRefused: (deviceId, count) => void rejects.count('state_limit', deviceId, 0, count),
    onSettled: settle,
    onCommit(batches) {
      if (listeners.size) for (const b of batches) call(listeners, b, 'subscribe');
      // scale-out: the other gateway processes' viewers (live cards, device data) hear what this one stored
      if (shareCommits) for (const b of batches) bus!.publish(`stored.${b.appId}.${b.deviceId}`, { origin, batch: b });
    },
  });

  // With NATS, each message is stored by one gateway of the writer queue group; every other gateway learns of the
  // commit on `stored.<app>.<device>` and serves its own listeners, its latest-value cache kept current the same way.
  const shareCommits = bus?.kind === 'nats';
  const storedSubscription = shareCommits
    ? bus!.subscribe<{ origin: string; batch: CommittedTelemetry }>('stored.>', ({ data }) => {
        if (data.origin === origin || closed) return;
        for (const p of data.batch.points) {
          const s = series.byId(p.seriesId);
          if (s) noteLatest(s, p);
        }
        if (listeners.size) call(listeners, data.batch, 'subscribe');
      })
    : undefined;

  const counters = {
    received_messages: 0,
    queued_messages: 0,
    ignored_messages: 0,
    clock_fallbacks: 0,
    refused_messages: 0,
  };
  const rejects = new IngestRejects(now);

  const backpressure = new Backpressure(
    () => writer.backlog,
    maxQueued,
    () => closed,
  );

  function enqueue(m: TelemetryMessage) {
    if (writer.enqueue(m) === 'refused') {
      counters.refused_messages++;
      // never acknowledged: its connection is closed and the device sends it again
      settle(m, false);
      if (counters.refused_messages % 1000 === 1)
        log.warn(`telemetry writer behind: ${writer.queuedPoints} points queued, messages refused`);
    }
    backpressure.relieve();
  }
  let subscription: BusSubscription | undefined;
  if (bus)
    subscription = bus.subscribe<TelemetryMessage>('tele.>', (msg) => enqueue(msg.data), { queue: 'telemetry-writer' });

  /** a LoRa network server's events by kind (ChirpStack v4: up, join, status, ack, txack, log, location, integration),
   * whether or not they carry data to store */
  const loraEvents: Record<string, number> = {};
  function countLoraEvent(topic: string) {
    const at = topic.lastIndexOf('/event/');
    const kind = at < 0 ? 'other' : topic.slice(at + 7);
    const key = LORA_EVENTS.has(kind) ? kind : 'other';
    loraEvents[key] = (loraEvents[key] ?? 0) + 1;
  }

  function resolve(identity: MqttIdentity, topic?: string) {
    if (!resolver) return null;
    try {
      return resolver.resolveDevice(identity, topic);
    } catch (err) {
      log.error('device resolver failed', err);
      return null;
    }
  }

  const normalising: NormaliseOptions = {
    series,
    futureToleranceMs: opts.futureToleranceMs ?? 5 * 60_000,
    maxAgeMs: opts.maxAgeMs ?? 400 * 86_400_000,
    rejectPoint: (reason, deviceId) => void rejects.count(reason, deviceId, 1),
  };

  function ingest(
    identity: MqttIdentity,
    topic: string,
    payload: Buffer,
    qos: 0 | 1 | 2 = 0,
    hold?: () => AckRelease,
  ): IngestOutcome {
    try {
      return ingestOne(identity, topic, payload, qos, hold);
    } catch (err) {
      // not stored (its new series could not be written: the database busy or failing), so not acknowledged either:
      // its connection closes and the device sends it again. Without a hold the broker would acknowledge it.
      if (qos > 0) hold?.()(false);
      throw err;
    }
  }

  function ingestOne(
    identity: MqttIdentity,
    topic: string,
    payload: Buffer,
    qos: 0 | 1 | 2,
    hold?: () => AckRelease,
  ): IngestOutcome {
    counters.received_messages++;
    if (closed) {
      // not stored, so not acknowledged: the device sends it again to the next gateway
      if (qos > 0) hold?.()(false);
      return rejects.count('closed', undefined);
    }
    const ctx = resolve(identity, topic);
    if (!ctx) return rejects.count('unknown_device', undefined);
    if (ctx.devEui !== undefined) countLoraEvent(topic);
    if (ctx.disabled) return rejects.count('disabled', ctx.deviceId);
    const res = adaptMessage(ctx, topic, payload, maxPayload);
    if (!res.ok) return rejects.count(res.reason, ctx.deviceId);
    const { message: m, clockFallback } = normalise(normalising, ctx, res.out, qos, now());
    if (clockFallback) counters.clock_fallbacks++;
    if (!m) {
      counters.ignored_messages++;
      return 'ignored';
    }
    counters.queued_messages++;
    // the in-process bus hands this very object to the writer; over NATS the message carries a ticket and whichever
    // gateway stores it reports the commit back (docs/decisions/ingest.md)
    if (qos > 0 && hold) {
      if (remoteAcks) m.ack = remoteAcks.ticket(hold());
      else heldAcks.set(m, hold());
    }
    if (bus) bus.publish(`tele.${ctx.appId}.${ctx.deviceId}`, m);
    else enqueue(m);
    return 'queued';
  }

  const reads = createTelemetryReads(sqlite, { series, rollups, points });
  const on = <T>(set: Set<T>, fn: T) => (set.add(fn), () => void set.delete(fn));

  return {
    attachBroker(broker) {
      if (broker.setReadPaused) backpressure.attach(broker as Pick<Broker, 'setReadPaused'>);
      broker.on('message', (identity, topic, payload, qos, hold) => void ingest(identity, topic, payload, qos, hold));
    },
    useResolver(r) {
      resolver = r;
    },
    ingest,
    subscribe: (listener) => on(listeners, listener),
    series: (id) => series.byId(id),
    get seriesLearnt() {
      return series.learnt;
    },
    reads,
    points,
    states,
    rejectsOf: (deviceId) => rejects.of(deviceId),
    metrics() {
      return {
        read_pauses: backpressure.pauses,
        ...counters,
        ...rejects.metrics(),
        ...writer.stats,
        queued_points: writer.queuedPoints,
        pressured: writer.pressured,
        reads_paused: backpressure.paused,
        lora_events: { ...loraEvents },
        series_cached: series.size,
        series_created: series.stats.created,
        series_create_ms: Math.round(series.stats.create_ms),
        series_max_create_ms: series.stats.max_create_ms,
        pending_rollup_buckets: rollups.pendingBuckets,
        ...(remoteAcks ? { ...remoteAcks.stats, remote_acks_waiting: remoteAcks.waiting } : {}),
        ...executor.checkpoints,
      };
    },
    async flush(o) {
      if (bus) await bus.flush();
      await writer.flush(o);
    },
    async close() {
      if (closed) return;
      closed = true;
      backpressure.close();
      // messages already published on an in-process bus are delivered before the writer closes
      if (bus) await bus.flush().catch((err) => log.error('bus flush failed', err));
      await new Promise((r) => setImmediate(r));
      subscription?.unsubscribe();
      await writer.close();
      remoteAcks?.close();
      // closed cleanly: no repair at the next start (a writer that gave up with deltas still pending keeps its row)
      if (journaled && !rollups.hasPending)
        sqlite.prepare('DELETE FROM telemetry_writer_state WHERE writer = ?').run(origin);
      storedSubscription?.unsubscribe();
    },
  };
}
