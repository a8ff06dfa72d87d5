// One MQTT message on its way in: the device (resolver) → its family's uplink → normalised points and states on their
// series → handed on (the bus or the writer's queue), its acknowledgement held until the writer settles it. Every
// message turned away is counted by reason and device; a LoRa network server's events are counted by kind.
import type { Logger } from '../../../platform/log.js';
import type { AckRelease, MqttIdentity } from '../../../platform/mqtt/types.js';
import {
  adaptMessage,
  type AdapterOutput,
  type DeviceContext,
  type DeviceResolution,
  type DeviceResolver,
  type RejectReason,
} from '../../devices/families/index.js';
import type { TelemetryMessage } from '../message.js';
import type { HeldAcks } from './acks.js';
import { normalise, type Normalised, type NormaliseOptions } from './normalise.js';
import type { IngestRejects } from './rejects.js';

export type IngestOutcome = 'queued' | 'ignored' | RejectReason;

/** the event kinds of ChirpStack v4's MQTT integration, counted one by one in `lora_events` (others as `other`) */
const LORA_EVENTS = new Set(['up', 'join', 'status', 'ack', 'txack', 'log', 'location', 'integration']);

export interface MessageIngestOptions {
  log: Logger;
  now: () => number;
  maxPayloadBytes: number;
  /** the device registry's resolver as it is now (null: no device is known) */
  resolver: () => DeviceResolver | null;
  /** the pipeline is closing: nothing more is taken */
  closed: () => boolean;
  rejects: IngestRejects;
  normalising: NormaliseOptions;
  acks: HeldAcks;
  /** hands a queued message on (the bus, or the writer's queue) */
  deliver: (m: TelemetryMessage, ctx: DeviceContext) => void;
}

export function createMessageIngest(o: MessageIngestOptions) {
  const counters = {
    received_messages: 0,
    queued_messages: 0,
    ignored_messages: 0,
    clock_fallbacks: 0,
    /** messages that waited for a series being created (PostgreSQL), and those whose series could not be written */
    series_waits: 0,
    series_failures: 0,
  };
  /**
   * Devices with a message waiting for its series (PostgreSQL creates them asynchronously): the device's later
   * messages wait behind it, so a device's messages reach the writer in the order they came.
   */
  const seriesWaits = new Map<number, Promise<void>>();
  /** a LoRa network server's events by kind (ChirpStack v4: up, join, status, ack, txack, log, location, integration),
   * whether or not they carry data to store */
  const loraEvents: Record<string, number> = {};
  function countLoraEvent(topic: string) {
    const at = topic.lastIndexOf('/event/');
    const kind = at < 0 ? 'other' : topic.slice(at + 7);
    const key = LORA_EVENTS.has(kind) ? kind : 'other';
    loraEvents[key] = (loraEvents[key] ?? 0) + 1;
  }

  function resolve(identity: MqttIdentity, topic?: string): DeviceResolution {
    const resolver = o.resolver();
    if (!resolver) return null;
    try {
      return resolver.resolveDevice(identity, topic);
    } catch (err) {
      o.log.error('device resolver failed', err);
      return null;
    }
  }

  /**
   * Clients whose messages wait for their device's row (the resolver answered a promise), by identity key: the
   * client's next messages go after them, in the order they came, even when the row is cached meanwhile.
   */
  const resolving = new Map<string, Promise<unknown>>();

  function ingestOne(
    identity: MqttIdentity,
    topic: string,
    payload: Buffer,
    qos: 0 | 1 | 2,
    hold?: () => AckRelease,
  ): IngestOutcome | Promise<IngestOutcome> {
    const { rejects } = o;
    counters.received_messages++;
    if (o.closed()) {
      // not stored, so not acknowledged: the device sends it again to the next gateway
      if (qos > 0) hold?.()(false);
      return rejects.count('closed', undefined);
    }
    const before = resolving.get(identity.key);
    const ctx = before ? undefined : resolve(identity, topic);
    if (!before && !(ctx instanceof Promise)) return handle(ctx ?? null, topic, payload, qos, hold);
    // the device's row is being read (or an earlier message of this client waits for it): the acknowledgement is
    // held now (the broker takes a hold only while the listener runs) and given once the message is handled
    const release = qos > 0 ? hold?.() : undefined;
    const done = (before ? before.then(() => resolve(identity, topic)) : (ctx as Promise<DeviceContext | null>)).then(
      (c) => {
        if (o.closed()) return (release?.(false), rejects.count('closed', undefined));
        const outcome = handle(c, topic, payload, qos, release && (() => release));
        // a message not kept is acknowledged now, as the broker does for one refused at once
        if (outcome !== 'queued') release?.();
        return outcome;
      },
      (err) => {
        // not known whose it is: not stored, so not acknowledged (the device sends it again)
        o.log.error('device resolver failed', err);
        release?.(false);
        return rejects.count('unknown_device', undefined);
      },
    );
    // a message that could not be stored (handle threw, its acknowledgement refused) is logged here; a caller awaiting
    // the outcome sees the error too
    done.catch((err) => o.log.error('message not ingested', err));
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    resolving.set(identity.key, settled);
    void settled.then(() => {
      if (resolving.get(identity.key) === settled) resolving.delete(identity.key);
    });
    return done;
  }

  /** a message whose device is known (or not); `hold` takes its acknowledgement (a refused one is not held) */
  function handle(
    ctx: DeviceContext | null,
    topic: string,
    payload: Buffer,
    qos: 0 | 1 | 2,
    hold: (() => AckRelease) | undefined,
  ): IngestOutcome {
    const { rejects } = o;
    try {
      if (!ctx) return rejects.count('unknown_device', undefined);
      if (ctx.devEui !== undefined) countLoraEvent(topic);
      if (ctx.disabled) return rejects.count('disabled', ctx.deviceId);
      const res = adaptMessage(ctx, topic, payload, o.maxPayloadBytes);
      if (!res.ok) return rejects.count(res.reason, ctx.deviceId);
      const receivedAt = o.now();
      const behind = seriesWaits.get(ctx.deviceId);
      if (behind) return later(behind, ctx, res.out, qos, receivedAt, qos > 0 && hold ? hold() : undefined);
      const n = normalise(o.normalising, ctx, res.out, qos, receivedAt);
      if (n.waitFor) return later(n.waitFor, ctx, res.out, qos, receivedAt, qos > 0 && hold ? hold() : undefined);
      return handOn(n, ctx, qos, hold);
    } catch (err) {
      // not stored (its new series could not be written: the database busy or failing), so not acknowledged either:
      // its connection closes and the device sends it again. Without a hold the broker would acknowledge it.
      if (qos > 0) hold?.()(false);
      throw err;
    }
  }

  function handOn(n: Normalised, ctx: DeviceContext, qos: 0 | 1 | 2, release?: () => AckRelease): IngestOutcome {
    const m = n.message;
    if (n.clockFallback) counters.clock_fallbacks++;
    if (!m) {
      counters.ignored_messages++;
      return 'ignored';
    }
    counters.queued_messages++;
    // the in-process bus hands this very object to the writer; over NATS the message carries a ticket and whichever
    // gateway stores it reports the commit back (docs/decisions/ingest.md)
    if (qos > 0 && release) o.acks.hold(m, release());
    o.deliver(m, ctx);
    return 'queued';
  }

  /**
   * The message once `before` settled (its series created, or the device's earlier message handed on): its
   * acknowledgement is held meanwhile. A series that could not be written leaves it unacknowledged (the device sends it
   * again), as on SQLite.
   */
  function later(
    before: Promise<unknown>,
    ctx: DeviceContext,
    out: AdapterOutput,
    qos: 0 | 1 | 2,
    receivedAt: number,
    release: AckRelease | undefined,
  ): IngestOutcome {
    counters.series_waits++;
    const deviceId = ctx.deviceId;
    const turn: Promise<void> = before
      .then(async () => {
        let n = normalise(o.normalising, ctx, out, qos, receivedAt);
        // the series it waited for are held now; a message needing yet another creation (the device's earlier message
        // was given up meanwhile) waits once more, but not without end
        for (let tries = 0; n.waitFor; tries++) {
          if (tries === 3) throw new Error('series still missing after their creation');
          await n.waitFor;
          n = normalise(o.normalising, ctx, out, qos, receivedAt);
        }
        if (o.closed()) {
          release?.(false);
          o.rejects.count('closed', deviceId);
          return;
        }
        // nothing left to store: acknowledged, as a message refused at once is
        if (handOn(n, ctx, qos, release && (() => release)) !== 'queued') release?.(true);
      })
      .catch((err: unknown) => {
        counters.series_failures++;
        release?.(false);
        if (counters.series_failures % 100 === 1) o.log.warn(`telemetry series could not be created: ${String(err)}`);
      })
      .finally(() => {
        if (seriesWaits.get(deviceId) === turn) seriesWaits.delete(deviceId);
      });
    seriesWaits.set(deviceId, turn);
    return 'queued';
  }

  return {
    /** One message from an authorised client; a queued QoS 1 or 2 message holds its acknowledgement (`hold`). */
    ingest(identity: MqttIdentity, topic: string, payload: Buffer, qos: 0 | 1 | 2 = 0, hold?: () => AckRelease) {
      return ingestOne(identity, topic, payload, qos, hold);
    },
    counters,
    loraEvents,
    /** resolves once every message waiting for its device's row or its series was handed on (or given up) */
    async settled(): Promise<void> {
      while (resolving.size || seriesWaits.size) await Promise.all([...resolving.values(), ...seriesWaits.values()]);
    },
  };
}
