// The device registry: add (through the family's activation behaviour), get, edit, remove, the list and the pickers'
// search (device-search.ts), and presence (online, last_online_ts, last_offline_ts) as the broker reports it. Knows no
// broker: it announces changes. Its rows are the devices store's (devices.store.ts).
import { T, type DeviceFamily, type DeviceSummary, type DeviceTags, type DeviceVariant } from '@sentra/contracts';
import { conflict, invalid, notFound } from '../../platform/http/errors.js';
import { hashBrokerSecret, isHashedBrokerSecret } from '../../platform/crypto.js';
import type { Logger } from '../../platform/log.js';
import { isUniqueViolation } from '../../platform/db/unique.js';
import type { TagsService } from '../tags/tags.service.js';
import type { RequestOrigin } from './broker-address.js';
import { SEEN_CHUNK, type DeviceChange, type DevicesStore } from './devices.store.js';
import { createSeenWrites } from './seen-writes.js';
import { brokerSecret, familyBehaviours, type DeviceRow, type FamilyDeps } from './families/index.js';
import type { DeviceFilter, DevicePick } from './device-search.js';

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

export function createDeviceService(
  store: DevicesStore,
  deps: Omit<FamilyDeps, 'store'> & { tags: TagsService; now?: () => number; log?: Logger },
) {
  const now = deps.now ?? Date.now;
  const behaviours = familyBehaviours({ ...deps, store });
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

  /** The application's device (of the family, when given); anything else is 404. */
  async function rowOf(appId: number, id: number, family?: DeviceFamily): Promise<DeviceRow> {
    const row = await store.byId(appId, id);
    if (!row || (family && row.category !== family.category)) throw notFound();
    return row;
  }

  async function familyInfo(row: DeviceRow, family: DeviceFamily, origin?: RequestOrigin) {
    return {
      ...full(row),
      ...(await behaviours[family.activation].info(
        row,
        family,
        parse(row.details, {}) as Record<string, unknown>,
        origin,
      )),
    };
  }

  async function add(
    appId: number,
    family: DeviceFamily,
    variant: DeviceVariant,
    input: Record<string, any>,
    origin?: RequestOrigin,
  ) {
    const behaviour = behaviours[family.activation];
    // what the add checks; asked again when a concurrent add took a unique value first, to answer as it would have
    const check = async () => {
      if (await store.serialTaken(appId, input.serial_number)) throw conflict(T.devices.serverSerialTaken);
      return behaviour.prepareAdd(appId, family, input);
    };
    const prepared = await check();
    const tags = input.tags ? await deps.tags.normalise(appId, input.tags) : {};
    const ts = now();
    let row: DeviceRow;
    try {
      row = await store.insert({
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
      });
    } catch (err) {
      if (isUniqueViolation(err)) await check();
      throw err;
    }
    announce('added', row);
    return { ...(await familyInfo(row, family, origin)), ...prepared.shown };
  }

  // What the broker reports of one device (presence, discovery) is written in the order it was reported: a connect and
  // the disconnect right after it (a reconnect racing its old socket), or two discovery messages read-modify-writing
  // the same details, must not overtake each other on an engine that answers out of order.
  const turns = new Map<number, Promise<void>>();
  function inTurn(id: number, write: () => Promise<void>): Promise<void> {
    const next = (turns.get(id) ?? Promise.resolve()).then(write);
    const settled = next.catch(() => undefined);
    turns.set(id, settled);
    void settled.then(() => {
      if (turns.get(id) === settled) turns.delete(id);
    });
    return next;
  }

  /** Changes the family's details of a device the gateway itself learnt about (Tasmota discovery); nothing if gone. */
  function updateDetails(id: number, change: (details: Record<string, unknown>) => Record<string, unknown>) {
    return inTurn(id, async () => {
      const text = await store.detailsOf(id);
      if (text === undefined) return;
      const details = change(parse(text, {}) as Record<string, unknown>);
      await store.update(id, { details: JSON.stringify(details), updatedAt: now() });
    });
  }

  /** A new broker password or gateway secret for the device, answered once; the old one stops working at once. */
  async function regenerateSecret(appId: number, id: number) {
    const before = await rowOf(appId, id);
    const username = before.brokerUsername ?? before.uid;
    if (!username)
      throw invalid(T.devices.serverNoBrokerSecret, [{ path: 'id', message: T.devices.serverNoBrokerSecret }]);
    const { secret, stored } = brokerSecret();
    const row = await store.update(id, { brokerPassword: stored, updatedAt: now() });
    if (!row) throw notFound();
    announce('secret', row);
    return { id, username, secret };
  }

  async function remove(appId: number, family: DeviceFamily, id: number) {
    const row = await rowOf(appId, id, family);
    // a remove racing another finds it gone: the one that removed it announces
    if (!(await store.remove(id))) throw notFound();
    if (row.tokenId) await deps.activation.removeToken(row.tokenId);
    lastSeenWrite.delete(id);
    announce('removed', row);
    return {};
  }

  async function editSensors(appId: number, family: DeviceFamily, id: number, sensors: unknown) {
    await rowOf(appId, id, family);
    const row = await store.update(id, { sensors: JSON.stringify(sensors), updatedAt: now() });
    if (!row) throw notFound();
    announce('sensors', row);
    return full(row);
  }

  async function edit(
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
    const before = await rowOf(appId, input.id);
    const set: DeviceChange = { updatedAt: now() };
    if (input.name !== undefined) set.name = input.name;
    if (input.description !== undefined) set.description = input.description || null;
    if (input.latitude !== undefined) set.latitude = input.latitude;
    if (input.longitude !== undefined) set.longitude = input.longitude;
    if (input.label !== undefined) set.label = input.label || null;
    if (input.tags !== undefined) set.tags = JSON.stringify(await deps.tags.normalise(appId, input.tags));
    if (input.disabled !== undefined) set.disabled = input.disabled;
    if (input.disabled)
      Object.assign(set, { online: false, lastOfflineTs: before.online ? now() : before.lastOfflineTs });
    const row = await store.update(input.id, set);
    if (!row) throw notFound();
    if (input.disabled && !before.disabled) announce('disabled', row);
    announce('updated', row);
    return full(row);
  }

  // ---- presence, as the broker reports it ----

  // A device already online only moves its last_online_ts: those writes are gathered and made every SEEN_FLUSH_MS, a
  // hundred devices a statement, each in a turn of its own (seen-writes.ts), so thousands of devices cost a few short
  // writes a second instead of one each
  const seenWrites = createSeenWrites(store.moveLastSeen, SEEN_CHUNK);

  async function writePresence(id: number, online: boolean, ts: number) {
    const { before, row } = await store.markPresence(id, online, ts);
    if (row && before !== undefined && before !== online) announce('status', row);
  }
  function setOnline(id: number, online: boolean, ts = now()): Promise<void> {
    if (online) lastSeenWrite.set(id, ts);
    else (lastSeenWrite.delete(id), seenWrites.drop(id));
    return inTurn(id, () => writePresence(id, online, ts));
  }

  /** A message from the device: online (at once when it was not), and last_online_ts moves (throttled, gathered). */
  function seen(id: number, ts = now()): void {
    const last = lastSeenWrite.get(id);
    if (last === undefined)
      return void setOnline(id, true, ts).catch((err) => deps.log?.error(`presence of device ${id} not written`, err));
    if (ts - last < SEEN_WRITE_MS) return;
    lastSeenWrite.set(id, ts);
    seenWrites.add(id, ts);
  }

  /** Devices heard only through messages (LoRa) go offline after this silence. */
  async function expireSilent(categories: number[], silenceMs: number, ts = now()) {
    const stale = await store.onlineSilentSince(categories, ts - silenceMs);
    for (const id of stale) await setOnline(id, false, ts);
    return stale.length;
  }

  /**
   * Devices the registry says are online through a connection that no gateway holds (their gateway stopped without
   * seeing them go: a crash): offline now. Only those not heard since `before`, so a device that connected meanwhile
   * stays online; presence by messages (`except`, LoRa) is left to its silence time-out.
   */
  async function expireUnheld(except: number[], before: number, held: ReadonlySet<number>, ts = now()) {
    const stale = (await store.onlineUnheardSince(except, before)).filter((id) => !held.has(id));
    for (const id of stale) await setOnline(id, false, ts);
    return stale.length;
  }

  async function filter(appId: number, q: DeviceFilter) {
    const { rows, total } = await store.search.filter(appId, q);
    return { devices: rows.map(summary), total, page: q.page, size: q.size };
  }

  async function pick(appId: number, q: DevicePick) {
    const { rows, total } = await store.search.pick(appId, q);
    return {
      devices: rows.map((r) => ({
        id: r.id,
        name: r.name,
        label: r.label || r.name,
        serial_number: r.serial,
        category: r.category,
        deviceType: r.deviceType,
        online: r.online,
      })),
      total,
      page: q.page,
      size: q.size,
    };
  }

  return {
    add,
    remove,
    edit,
    editSensors,
    filter,
    pick,
    regenerateSecret,
    updateDetails,
    get: async (appId: number, id: number) => full(await rowOf(appId, id)),
    getFamily: async (appId: number, family: DeviceFamily, id: number, origin?: RequestOrigin) =>
      familyInfo(await rowOf(appId, id, family), family, origin),
    rowOf,
    setOnline,
    seen,
    expireSilent,
    expireUnheld,
    /** writes the gathered last_online_ts moves now (every SEEN_FLUSH_MS, and at close) */
    flushSeen: seenWrites.flush,
    // identity lookups for the broker authority (sign-in, its check of connected devices) and the provision checks
    byId: store.byId,
    signInStatesOf: store.signInStatesOf,
    uidsRegistered: store.uidsRegistered,
    byBrokerUsername: store.byBrokerUsername,
    byUid: store.byUid,
    byToken: store.byToken,
    byDevEui: store.byDevEui,
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
export async function hashPlainBrokerPasswords(
  store: Pick<DevicesStore, 'plainBrokerPasswords' | 'setBrokerPasswords'>,
): Promise<number> {
  const plain = (await store.plainBrokerPasswords()).filter((r) => !isHashedBrokerSecret(r.password));
  if (plain.length === 0) return 0;
  await store.setBrokerPasswords(plain.map((r) => ({ id: r.id, password: hashBrokerSecret(r.password) })));
  return plain.length;
}
