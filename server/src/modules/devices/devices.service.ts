// The device registry: add (through the family's activation behaviour), get, edit, remove, the list and the pickers'
// search (device-search.ts), and
// presence (online, last_online_ts, last_offline_ts) as the broker reports it. Knows no broker: it announces changes.
import { and, eq, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { T, type DeviceFamily, type DeviceSummary, type DeviceTags, type DeviceVariant } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { conflict, invalid, notFound } from '../../platform/http/errors.js';
import { hashBrokerSecret, isHashedBrokerSecret } from '../../platform/crypto.js';
import type { TagsService } from '../tags/tags.service.js';
import { devices } from './devices.table.js';
import type { RequestOrigin } from './broker-address.js';
import { brokerSecret, familyBehaviours, type DeviceRow, type FamilyDeps } from './families/index.js';
import { createDeviceSearch } from './device-search.js';

export type { DeviceFilter, DevicePick } from './device-search.js';

type Listener = (row: DeviceRow) => void;
/** last_online_ts is rewritten at most this often while a device keeps talking */
const SEEN_WRITE_MS = 10_000;
/** how often the gathered last_online_ts moves are written (devices.broker.ts runs the timer) */
export const SEEN_FLUSH_MS = 1000;

const parse = (text: string, fallback: unknown) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
};

export function createDeviceService(db: Db, deps: Omit<FamilyDeps, 'db'> & { tags: TagsService; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const behaviours = familyBehaviours({ ...deps, db });
  // status: online ↔ offline transitions (live device list)
  // secret: its broker secret was regenerated (connections signed in with the old one go)
  const listeners = {
    added: new Set<Listener>(),
    removed: new Set<Listener>(),
    disabled: new Set<Listener>(),
    status: new Set<Listener>(),
    secret: new Set<Listener>(),
    updated: new Set<Listener>(),
    sensors: new Set<Listener>(),
  };
  const lastSeenWrite = new Map<number, number>();
  hashPlainBrokerPasswords(db);

  const announce = (event: keyof typeof listeners, row: DeviceRow) => listeners[event].forEach((fn) => fn(row));

  function summary(r: DeviceRow): DeviceSummary {
    return {
      id: r.id,
      name: r.name,
      label: r.label ?? r.name,
      serial_number: r.serialNumber,
      category: r.category,
      category_text: r.categoryText,
      deviceType: r.deviceType,
      firmware_version: r.firmwareVersion,
      online: r.online,
      last_online_ts: r.lastOnlineTs,
      last_offline_ts: r.lastOfflineTs,
      disabled: r.disabled,
      tags: parse(r.tags, {}) as DeviceTags,
      description: r.description,
      latitude: r.latitude,
      longitude: r.longitude,
      created_at: r.createdAt,
    };
  }
  const full = (r: DeviceRow) => ({ ...summary(r), sensors: parse(r.sensors, {}) });
  // the list's filters and the pickers' search (device-search.ts)
  const search = createDeviceSearch(db, summary);

  /** The application's device (of the family, when given); anything else is 404. */
  function rowOf(appId: number, id: number, family?: DeviceFamily): DeviceRow {
    const row = db
      .select()
      .from(devices)
      .where(and(eq(devices.appId, appId), eq(devices.id, id)))
      .get();
    if (!row || (family && row.category !== family.category)) throw notFound();
    return row;
  }

  function familyInfo(row: DeviceRow, family: DeviceFamily, origin?: RequestOrigin) {
    return {
      ...full(row),
      ...behaviours[family.activation].info(row, family, parse(row.details, {}) as Record<string, unknown>, origin),
    };
  }

  function add(
    appId: number,
    family: DeviceFamily,
    variant: DeviceVariant,
    input: Record<string, any>,
    origin?: RequestOrigin,
  ) {
    if (
      db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.appId, appId), eq(devices.serialNumber, input.serial_number)))
        .get()
    ) {
      throw conflict(T.devices.serverSerialTaken);
    }
    const tags = input.tags ? deps.tags.normalise(appId, input.tags) : {};
    const prepared = behaviours[family.activation].prepare(appId, family, input);
    const ts = now();
    const row = db
      .insert(devices)
      .values({
        appId,
        category: family.category,
        categoryText: family.categoryText,
        deviceType: variant.deviceType,
        name: input.name,
        serialNumber: input.serial_number,
        description: input.description || null,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        sensors: JSON.stringify(input.sensors ?? {}),
        tags: JSON.stringify(tags),
        ...prepared.columns,
        details: JSON.stringify(prepared.details),
        createdAt: ts,
        updatedAt: ts,
      })
      .returning()
      .get();
    announce('added', row);
    return { ...familyInfo(row, family, origin), ...prepared.shown };
  }

  /** Changes the family's details of a device the gateway itself learnt about (Tasmota discovery); nothing if gone. */
  function updateDetails(id: number, change: (details: Record<string, unknown>) => Record<string, unknown>) {
    const row = db.select({ details: devices.details }).from(devices).where(eq(devices.id, id)).get();
    if (!row) return;
    const details = change(parse(row.details, {}) as Record<string, unknown>);
    db.update(devices)
      .set({ details: JSON.stringify(details), updatedAt: now() })
      .where(eq(devices.id, id))
      .run();
  }

  /** A new broker password or gateway secret for the device, answered once; the old one stops working at once. */
  function regenerateSecret(appId: number, id: number) {
    const before = rowOf(appId, id);
    const username = before.brokerUsername ?? before.uid;
    if (!username)
      throw invalid(T.devices.serverNoBrokerSecret, [{ path: 'id', message: T.devices.serverNoBrokerSecret }]);
    const { secret, stored } = brokerSecret();
    const row = db
      .update(devices)
      .set({ brokerPassword: stored, updatedAt: now() })
      .where(eq(devices.id, id))
      .returning()
      .get();
    announce('secret', row);
    return { id, username, secret };
  }

  function remove(appId: number, family: DeviceFamily, id: number) {
    const row = rowOf(appId, id, family);
    db.delete(devices).where(eq(devices.id, id)).run();
    if (row.tokenId) deps.activation.removeToken(row.tokenId);
    lastSeenWrite.delete(id);
    announce('removed', row);
    return {};
  }

  function editSensors(appId: number, family: DeviceFamily, id: number, sensors: unknown) {
    rowOf(appId, id, family);
    const row = db
      .update(devices)
      .set({ sensors: JSON.stringify(sensors), updatedAt: now() })
      .where(eq(devices.id, id))
      .returning()
      .get();
    announce('sensors', row);
    return full(row);
  }

  function edit(
    appId: number,
    input: {
      id: number;
      name?: string;
      description?: string | null;
      latitude?: number | null;
      longitude?: number | null;
      label?: string;
      tags?: DeviceTags;
      disabled?: boolean;
    },
  ) {
    const before = rowOf(appId, input.id);
    const set: Partial<DeviceRow> = { updatedAt: now() };
    if (input.name !== undefined) set.name = input.name;
    if (input.description !== undefined) set.description = input.description || null;
    if (input.latitude !== undefined) set.latitude = input.latitude;
    if (input.longitude !== undefined) set.longitude = input.longitude;
    if (input.label !== undefined) set.label = input.label || null;
    if (input.tags !== undefined) set.tags = JSON.stringify(deps.tags.normalise(appId, input.tags));
    if (input.disabled !== undefined) set.disabled = input.disabled;
    if (input.disabled)
      Object.assign(set, { online: false, lastOfflineTs: before.online ? now() : before.lastOfflineTs });
    const row = db.update(devices).set(set).where(eq(devices.id, input.id)).returning().get();
    if (input.disabled && !before.disabled) announce('disabled', row);
    announce('updated', row);
    return full(row);
  }

  // ---- presence, as the broker reports it ----

  // prepared once: a fleet connecting (or its gateway stopping) calls this thousands of times in a few seconds, and
  // drizzle's builder per call cost more than the write
  const wasOnline = db
    .select({ online: devices.online })
    .from(devices)
    .where(eq(devices.id, sql.placeholder('id')))
    .prepare();
  const enabled = and(eq(devices.id, sql.placeholder('id')), eq(devices.disabled, false));
  const markOnline = db
    .update(devices)
    .set({ online: true, lastOnlineTs: sql`${sql.placeholder('ts')}` })
    .where(enabled)
    .returning()
    .prepare();
  const markOffline = db
    .update(devices)
    .set({ online: false, lastOfflineTs: sql`${sql.placeholder('ts')}` })
    .where(enabled)
    .returning()
    .prepare();
  function setOnline(id: number, online: boolean, ts = now()) {
    const before = wasOnline.get({ id });
    const row = (online ? markOnline : markOffline).get({ id, ts }) as DeviceRow | undefined;
    if (online) lastSeenWrite.set(id, ts);
    else (lastSeenWrite.delete(id), pendingSeen.delete(id));
    if (row && before && before.online !== online) announce('status', row);
  }

  // A device already online only moves its last_online_ts: those writes are gathered and made in one transaction each
  // SEEN_FLUSH_MS, so thousands of devices cost one short write a second on the event loop (it shares the database's write
  // lock with the telemetry writer thread) instead of one each.
  const pendingSeen = new Map<number, number>();
  // prepared once: built per row, drizzle's query builder cost more than the write
  const moveSeen = db
    .update(devices)
    .set({ lastOnlineTs: sql`${sql.placeholder('ts')}` })
    .where(
      and(
        eq(devices.id, sql.placeholder('id')),
        eq(devices.online, true),
        eq(devices.disabled, false),
        or(isNull(devices.lastOnlineTs), lt(devices.lastOnlineTs, sql.placeholder('ts'))),
      ),
    )
    .prepare();
  function flushSeen() {
    if (pendingSeen.size === 0) return;
    const rows = [...pendingSeen];
    pendingSeen.clear();
    db.transaction(
      () => {
        for (const [id, ts] of rows) moveSeen.run({ id, ts });
      },
      { behavior: 'immediate' },
    );
  }
  /** A message from the device: online (at once when it was not), and last_online_ts moves (throttled, gathered). */
  function seen(id: number, ts = now()) {
    const last = lastSeenWrite.get(id);
    if (last === undefined) return setOnline(id, true, ts);
    if (ts - last < SEEN_WRITE_MS) return;
    lastSeenWrite.set(id, ts);
    pendingSeen.set(id, ts);
  }

  /** Devices heard only through messages (LoRa) go offline after this silence. */
  function expireSilent(categories: number[], silenceMs: number, ts = now()) {
    const stale = db
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(eq(devices.online, true), inArray(devices.category, categories), lt(devices.lastOnlineTs, ts - silenceMs)),
      )
      .all();
    for (const { id } of stale) setOnline(id, false, ts);
    return stale.length;
  }

  /**
   * Devices the registry says are online through a connection that no gateway holds (their gateway stopped without
   * seeing them go: a crash): offline now. Only those not heard since `before`, so a device that connected meanwhile
   * stays online; presence by messages (`except`, LoRa) is left to its silence time-out.
   */
  function expireUnheld(except: number[], before: number, held: ReadonlySet<number>, ts = now()) {
    const stale = db
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(
          eq(devices.online, true),
          notInArray(devices.category, except),
          or(isNull(devices.lastOnlineTs), lt(devices.lastOnlineTs, before)),
        ),
      )
      .all()
      .filter(({ id }) => !held.has(id));
    for (const { id } of stale) setOnline(id, false, ts);
    return stale.length;
  }

  // ---- identity lookups for the broker authority ----
  // prepared once: they run on every connect (and byDevEui on every LoRa uplink), where building the query cost more
  // than running it
  const byBrokerUsernameQ = db
    .select()
    .from(devices)
    .where(eq(devices.brokerUsername, sql.placeholder('username')))
    .prepare();
  const byUidQ = db
    .select()
    .from(devices)
    .where(eq(devices.uid, sql.placeholder('uid')))
    .prepare();
  const byTokenQ = db
    .select()
    .from(devices)
    .where(eq(devices.tokenId, sql.placeholder('tokenId')))
    .prepare();
  const byDevEuiQ = db
    .select()
    .from(devices)
    .where(and(eq(devices.appId, sql.placeholder('appId')), eq(devices.devEui, sql.placeholder('devEui'))))
    .prepare();
  const byBrokerUsername = (username: string) => byBrokerUsernameQ.get({ username });
  const byUid = (uid: string) => byUidQ.get({ uid });
  const byToken = (tokenId: number) => byTokenQ.get({ tokenId });
  const byDevEui = (appId: number, devEui: string) => byDevEuiQ.get({ appId, devEui });

  return {
    add,
    remove,
    edit,
    editSensors,
    filter: search.filter,
    pick: search.pick,
    regenerateSecret,
    updateDetails,
    get: (appId: number, id: number) => full(rowOf(appId, id)),
    getFamily: (appId: number, family: DeviceFamily, id: number, origin?: RequestOrigin) =>
      familyInfo(rowOf(appId, id, family), family, origin),
    rowOf,
    setOnline,
    seen,
    expireSilent,
    expireUnheld,
    /** writes the gathered last_online_ts moves now (every SEEN_FLUSH_MS, and at close) */
    flushSeen,
    byBrokerUsername,
    byUid,
    byToken,
    byDevEui,
    on(event: keyof typeof listeners, fn: Listener) {
      listeners[event].add(fn);
    },
  };
}

export type DeviceService = ReturnType<typeof createDeviceService>;

/**
 * Broker passwords of MQTT and Tasmota devices were kept in plain text before issue 23: at open, every one still plain is
 * replaced by its hash, so the device keeps signing in with the password it has while the database no longer holds it.
 * Idempotent (hashed values are marked); one transaction.
 */
export function hashPlainBrokerPasswords(db: Db): number {
  const plain = db
    .select({ id: devices.id, password: devices.brokerPassword })
    .from(devices)
    .where(sql`${devices.brokerPassword} is not null and ${devices.brokerPassword} not like 'sha256$%'`)
    .all()
    .filter((r) => !isHashedBrokerSecret(r.password!));
  if (plain.length === 0) return 0;
  db.transaction(
    (tx) => {
      for (const r of plain)
        tx.update(devices)
          .set({ brokerPassword: hashBrokerSecret(r.password!) })
          .where(eq(devices.id, r.id))
          .run();
    },
    { behavior: 'immediate' },
  );
  return plain.length;
}
