// The device registry's answer to the telemetry pipeline's question "whose message is this?": an MQTT identity (and
// topic) → the device's context (id, application, family, Tasmota topic, LoRa DevEUI and decoder, gateway UID, declared
// datatypes). Resolved on every message, so rows are cached briefly; removal and disabling evict at once.
//
// Each cached row lives a random time between half and all of RESOLVER_CACHE_MS: a fleet first heard within a second
// would otherwise expire within a second, every 5 s, and its thousands of row loads would stall the event loop at once
// (the served ingest bench: 5,000 devices, a 200-400 ms stall every 5 s, p99 publish → stored in hundreds of ms).
// Spread, the loads are a steady trickle, and they run prepared queries (drizzle's builder per call cost more than
// the read).
//
// The rows come from the store (either engine), so a load is a promise. A cached answer is given at once, an expired
// one too while its row reloads in the background (the next message gets the new row); only a device not cached at
// all (first heard, or just edited through this gateway) answers a promise, which the pipeline waits for, keeping the
// order of that client's messages (message-ingest.ts). Loads of the same row share one query.
import { and, eq, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import type { MqttIdentity } from '../../platform/mqtt/types.js';
import type { DeviceContext, DeviceIdentity, DeviceResolution, DeviceResolver } from './families/index.js';
import { parseSensorConfig } from '../telemetry/sensor-config.js';
import type { DeviceService } from './devices.service.js';
import { devices, type DeviceRow } from './devices.table.js';
import type { LoraApplications } from '../lora/network-server-auth.js';
import type { RegistryChange } from './registry-changes.js';

/** Another gateway's edit of a device reaches ingest within this time (and a read); this gateway's edits, remove and
 * disable at once. */
export const RESOLVER_CACHE_MS = 5000;
const MAX_CACHED = 50_000;
const LORA_TOPIC = /^application\/([^/]+)\/device\/([0-9A-Fa-f]{16})\//;

interface Cached<V> {
  value: V;
  /** until when the entry answers without a reload */
  until: number;
  /** a background reload under way */
  reloading?: boolean;
}

/** what a device's context is made of: the columns a reload reads (not the whole row: it is read ~1,300 times a second
 * for a fleet of 5,000) */
export type ContextRow = Pick<
  DeviceRow,
  'id' | 'appId' | 'category' | 'topic' | 'devEui' | 'uid' | 'sensors' | 'disabled'
>;

/** How a resolver reads the registry's rows (prepared queries on the store; a test's table). */
export interface ResolverRows {
  byId(id: number): Promise<ContextRow | undefined>;
  /** the device of `devEui` (upper case) in the application */
  idByEui(appId: number, devEui: string): Promise<number | undefined>;
  /** the device added for a Sentra end device's token */
  byToken(tokenId: number): Promise<Pick<DeviceRow, 'id' | 'disabled'> | undefined>;
}

/**
 * How long a row is cached when this gateway is the only one (the in-process bus): every edit is this gateway's own
 * and evicts its row at once, so the lifetime only bounds an edit made outside the product (the database edited by
 * hand). Reloading every row each RESOLVER_CACHE_MS cost 2-3 % of the event loop at 150,000 points/s.
 */
export const ALONE_RESOLVER_CACHE_MS = 60_000;

/** A cached row's lifetime: between half and all of `ms`, at random, so a fleet's rows expire spread. */
export const cacheLifetime = (random = Math.random, ms = RESOLVER_CACHE_MS) => ms * (0.5 + 0.5 * random());

/** The registry's rows through queries prepared once (a builder render per load costs ~36 µs, a prepared one ~3.5). */
export function deviceRows(store: AppStore): ResolverRows {
  const db = store.db;
  const byId = db
    .select({
      id: devices.id,
      appId: devices.appId,
      category: devices.category,
      topic: devices.topic,
      devEui: devices.devEui,
      uid: devices.uid,
      sensors: devices.sensors,
      disabled: devices.disabled,
    })
    .from(devices)
    .where(eq(devices.id, sql.placeholder('id')))
    .prepare();
  const byEui = db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.appId, sql.placeholder('appId')), eq(devices.devEui, sql.placeholder('devEui'))))
    .prepare();
  const byToken = db
    .select({ id: devices.id, disabled: devices.disabled })
    .from(devices)
    .where(eq(devices.tokenId, sql.placeholder('tokenId')))
    .prepare();
  return {
    byId: (id) => byId.get({ id }),
    idByEui: async (appId, devEui) => (await byEui.get({ appId, devEui }))?.id,
    byToken: (tokenId) => byToken.get({ tokenId }),
  };
}

/** `f` of a value now, or of a promised one when it comes */
const after = <T, R>(v: T | Promise<T>, f: (v: T) => R | Promise<R>): R | Promise<R> =>
  v instanceof Promise ? v.then(f) : f(v);

export interface TelemetryResolver extends DeviceResolver {
  /** drops what is cached about a device (the registry's events call it) */
  forget(deviceId: number): void;
  /** a change made on another gateway (scale-out, registry-changes.ts): acted on as this gateway's own events are */
  changed(change: Pick<RegistryChange, 'event' | 'id' | 'appId' | 'devEui'>): void;
}

export function createTelemetryResolver(
  rows: ResolverRows,
  registry: Pick<DeviceService, 'on'>,
  opts: {
    now?: () => number;
    /** which application a network server's topic names (numeric id or its own UUID) */
    lora?: Pick<LoraApplications, 'names'>;
    /** a cached row's lifetime (default cacheLifetime of `cacheMs`) */
    lifetime?: () => number;
    /** the longest a row is cached (default RESOLVER_CACHE_MS) */
    cacheMs?: number;
    /** a background reload failed (the entry keeps answering and is tried again at the next message) */
    onError?: (err: unknown) => void;
  } = {},
): TelemetryResolver {
  const now = opts.now ?? Date.now;
  const lifetime = opts.lifetime ?? (() => cacheLifetime(Math.random, opts.cacheMs));
  const byId = new Map<number, Cached<DeviceContext | null>>();
  /** `<appId>:<DEVEUI>` → device id (null: no such device) */
  const byEui = new Map<string, Cached<number | null>>();
  /** loads under way of rows not cached, by id and by `<appId>:<DEVEUI>`: a second message waits for the same one */
  const loadingId = new Map<number, Promise<DeviceContext | null>>();
  const loadingEui = new Map<string, Promise<number | null>>();

  function contextOf(row: ContextRow): DeviceContext {
    const config = parseSensorConfig(row.sensors);
    return {
      deviceId: row.id,
      appId: row.appId,
      category: row.category,
      tasmotaTopic: row.topic ?? undefined,
      devEui: row.devEui ?? undefined,
      uid: row.uid ?? undefined,
      loraDecoder: config.decoder,
      disabled: row.disabled,
      declaredDatatype: config.params.length ? config.datatypeOf : undefined,
      dataTemplate: undefined,
      teleSubject: undefined,
    };
  }

  function remember<K, V>(map: Map<K, Cached<V>>, key: K, value: V) {
    if (map.size >= MAX_CACHED && !map.has(key)) map.delete(map.keys().next().value!);
    map.set(key, { value, until: now() + lifetime() });
  }

  /**
   * The cached value of `key` (an expired one reloads in the background and answers meanwhile), or the promise of a
   * load shared by every caller until it settles. A `forget` while a load is under way keeps its result out of the
   * cache (the row read may predate the edit).
   */
  function cached<K, V>(
    map: Map<K, Cached<V>>,
    loading: Map<K, Promise<V>>,
    key: K,
    load: (key: K) => Promise<V>,
  ): V | Promise<V> {
    const hit = map.get(key);
    if (hit) {
      if (now() >= hit.until && !hit.reloading) {
        hit.reloading = true;
        load(key).then(
          (value) => {
            if (map.get(key) === hit) remember(map, key, value);
          },
          (err) => {
            hit.reloading = false;
            opts.onError?.(err);
          },
        );
      }
      return hit.value;
    }
    const pending = loading.get(key);
    if (pending) return pending;
    const p = load(key).then(
      (value) => {
        if (loading.get(key) === p) {
          loading.delete(key);
          remember(map, key, value);
        }
        return value;
      },
      (err) => {
        if (loading.get(key) === p) loading.delete(key);
        throw err;
      },
    );
    loading.set(key, p);
    return p;
  }

  // the loaders are made once: a message answered from the cache allocates nothing here
  const loadDevice = async (id: number) => {
    const row = await rows.byId(id);
    return row ? contextOf(row) : null;
  };
  const loadEui = async (key: string) => {
    const at = key.indexOf(':');
    return (await rows.idByEui(Number(key.slice(0, at)), key.slice(at + 1))) ?? null;
  };
  const device = (id: number) => cached(byId, loadingId, id, loadDevice);

  function loraDevice(appId: number, topic: string): DeviceResolution {
    const m = LORA_TOPIC.exec(topic);
    if (!m || !(m[1] === String(appId) || opts.lora?.names(appId, m[1]!) === true)) return null;
    const devEui = m[2]!.toUpperCase();
    const id = cached(byEui, loadingEui, `${appId}:${devEui}`, loadEui);
    return after(id, (id) =>
      id === null ? null : after(device(id), (ctx) => (ctx && ctx.appId === appId ? ctx : null)),
    );
  }

  const forget = (id: number) => {
    byId.delete(id);
    loadingId.delete(id);
    for (const [k, v] of byEui) if (v.value === id) byEui.delete(k);
  };
  registry.on('removed', (row) => forget(row.id));
  registry.on('disabled', (row) => forget(row.id));
  // an edit made through this gateway (sensor configuration, enable, topic) reaches ingest at once; another gateway's
  // (scale-out) as soon as the bus brings it (`changed`), at the latest within RESOLVER_CACHE_MS
  registry.on('sensors', (row) => forget(row.id));
  registry.on('updated', (row) => forget(row.id));
  // a LoRa device added after its DevEUI was looked up (and found missing) is known at once
  const added = (row: Pick<ContextRow, 'appId' | 'devEui'>) => {
    if (!row.devEui) return;
    const key = `${row.appId}:${row.devEui.toUpperCase()}`;
    byEui.delete(key);
    loadingEui.delete(key);
  };
  registry.on('added', added);

  return {
    forget,
    changed(change) {
      if (change.event === 'added') added(change);
      else if (change.event !== 'secret') forget(change.id);
    },
    resolveDevice(identity: MqttIdentity, topic?: string): DeviceResolution {
      const i = identity as DeviceIdentity;
      switch (i.role) {
        case 'device':
        case 'tasmota':
        case 'gateway':
          return i.deviceId === undefined ? null : device(i.deviceId);
        case 'token': {
          if (i.deviceId !== undefined) return device(i.deviceId);
          // a Sentra end device that connected with its token before it was added
          return rows.byToken(i.tokenId!).then((row) => {
            if (!row || row.disabled) return null;
            i.deviceId = row.id;
            return device(row.id);
          });
        }
        case 'networkServer':
          // the network server speaks for many devices: only a topic names one
          return topic && i.appId !== undefined ? loraDevice(i.appId, topic) : null;
        default:
          return null;
      }
    },
  };
}
