// The devices domain's persistence (the registry, device tokens, gateway sightings) on the storage boundary's store:
// SQLite or PostgreSQL, one query code. Only this file, device-search.ts and devices.table.ts touch these tables.
import { and, asc, count, eq, inArray, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { createDeviceSearch } from './device-search.js';
import { devices, deviceTokens, gatewaySightings, type DeviceRow } from './devices.table.js';
import { chunks } from '../../platform/db/chunks.js';
import { likeEscaped } from '../../platform/db/like.js';

export type NewDevice = typeof devices.$inferInsert;
export type DeviceTokenRow = typeof deviceTokens.$inferSelect;
/** what a device edit may change (never its application or id) */
export type DeviceChange = Partial<Omit<NewDevice, 'id' | 'appId' | 'createdAt'>>;

/** devices whose last_online_ts one statement moves: one shape of statement (a shorter list is padded), kept prepared */
export const SEEN_CHUNK = 100;
/** devices (or UIDs) one statement of a sign-in check reads */
export const CHECK_CHUNK = 500;

export interface DeviceSignInState {
  id: number;
  appId: number;
  disabled: boolean;
  brokerPassword: string | null;
}

export function createDevicesStore(store: AppStore) {
  const { db } = store;
  const one = (where: ReturnType<typeof eq>) => db.select().from(devices).where(where).get();

  // ---- the registry ----

  /** the application's device, undefined for an unknown id or another application's device */
  const byId = (appId: number, id: number): Promise<DeviceRow | undefined> =>
    one(and(eq(devices.appId, appId), eq(devices.id, id))!);

  /**
   * What signing in depends on, for those of these devices that exist (a gateway back on the bus checks the devices
   * connected to it): read CHECK_CHUNK devices a statement, not one round trip each
   */
  async function signInStatesOf(ids: readonly number[]): Promise<DeviceSignInState[]> {
    const out: DeviceSignInState[] = [];
    for (const part of chunks(ids, CHECK_CHUNK))
      out.push(
        ...(await db
          .select({
            id: devices.id,
            appId: devices.appId,
            disabled: devices.disabled,
            brokerPassword: devices.brokerPassword,
          })
          .from(devices)
          .where(inArray(devices.id, part))),
      );
    return out;
  }

  /** which of these gateway UIDs a registered device has (CHECK_CHUNK a statement) */
  async function uidsRegistered(uids: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const part of chunks(uids, CHECK_CHUNK))
      for (const r of await db.select({ uid: devices.uid }).from(devices).where(inArray(devices.uid, part)))
        if (r.uid !== null) out.add(r.uid);
    return out;
  }

  async function serialTaken(appId: number, serialNumber: string): Promise<boolean> {
    const row = await db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.appId, appId), eq(devices.serialNumber, serialNumber)))
      .get();
    return row !== undefined;
  }

  /** a new device; a unique index's refusal (serial, UID, username, topic, token, DevEUI) is thrown as is */
  async function insert(values: Omit<NewDevice, 'id'>): Promise<DeviceRow> {
    const [row] = await db.insert(devices).values(values).returning();
    return row!;
  }

  /** the device changed as `set` says, undefined when it is gone */
  async function update(id: number, set: DeviceChange): Promise<DeviceRow | undefined> {
    const [row] = await db.update(devices).set(set).where(eq(devices.id, id)).returning();
    return row;
  }

  async function remove(id: number): Promise<boolean> {
    const [row] = await db.delete(devices).where(eq(devices.id, id)).returning({ id: devices.id });
    return row !== undefined;
  }

  async function detailsOf(id: number): Promise<string | undefined> {
    return (await db.select({ details: devices.details }).from(devices).where(eq(devices.id, id)).get())?.details;
  }

  // ---- identities (the broker authority, the families' add checks) ----

  const byBrokerUsername = (username: string) => one(eq(devices.brokerUsername, username));
  const byUid = (uid: string) => one(eq(devices.uid, uid));
  const byToken = (tokenId: number) => one(eq(devices.tokenId, tokenId));
  const byTopic = (topic: string) => one(eq(devices.topic, topic));
  const byDevEui = (appId: number, devEui: string) => one(and(eq(devices.appId, appId), eq(devices.devEui, devEui))!);

  // ---- presence ----

  async function onlineOf(id: number): Promise<boolean | undefined> {
    return (await db.select({ online: devices.online }).from(devices).where(eq(devices.id, id)).get())?.online;
  }

  /**
   * online or offline at `ts` (an enabled device only): whether it was online before (undefined: no such device) and
   * the row after (undefined when none changed), in one transaction.
   */
  function markPresence(id: number, online: boolean, ts: number) {
    return store.tx(async () => {
      const before = await onlineOf(id);
      const [row] = await db
        .update(devices)
        .set(online ? { online: true, lastOnlineTs: ts } : { online: false, lastOfflineTs: ts })
        .where(and(eq(devices.id, id), eq(devices.disabled, false)))
        .returning();
      return { before, row: row as DeviceRow | undefined };
    });
  }

  /**
   * last_online_ts of online devices moved forward (never back), at most SEEN_CHUNK of them in one statement (a CTE of
   * the moves joined by UPDATE … FROM, read alike by SQLite and PostgreSQL; a shorter list is padded with its last move,
   * which sets nothing twice).
   */
  async function moveLastSeen(moves: readonly (readonly [id: number, ts: number])[]): Promise<void> {
    if (moves.length > SEEN_CHUNK) throw new RangeError(`at most ${SEEN_CHUNK} moves a statement`);
    if (moves.length === 0) return;
    const padded = moves.concat(Array<readonly [number, number]>(SEEN_CHUNK - moves.length).fill(moves.at(-1)!));
    const values = sql.join(
      // typed: PostgreSQL reads a bare parameter in VALUES as text
      padded.map(([id, ts]) => sql`(cast(${id} as integer), cast(${ts} as integer))`),
      sql`, `,
    );
    await store.exec(
      sql`with moved (id, ts) as (values ${values})
          update devices set last_online_ts = moved.ts from moved
          where devices.id = moved.id and devices.online = 1 and devices.disabled = 0
            and (devices.last_online_ts is null or devices.last_online_ts < moved.ts)`,
    );
  }

  /** online devices of these categories not heard since `before` */
  async function onlineSilentSince(categories: number[], before: number): Promise<number[]> {
    const rows = await db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.online, true), inArray(devices.category, categories), lt(devices.lastOnlineTs, before)))
      .orderBy(asc(devices.id));
    return rows.map((r) => r.id);
  }

  /** online devices of any category but these, not heard since `before` (or never) */
  async function onlineUnheardSince(except: number[], before: number): Promise<number[]> {
    const rows = await db
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(
          eq(devices.online, true),
          notInArray(devices.category, except),
          or(isNull(devices.lastOnlineTs), lt(devices.lastOnlineTs, before)),
        ),
      )
      .orderBy(asc(devices.id));
    return rows.map((r) => r.id);
  }

  // ---- broker passwords kept in plain text before issue 23 ----

  const plainBrokerPasswords = () =>
    db
      .select({ id: devices.id, password: devices.brokerPassword })
      .from(devices)
      .where(and(isNotNull(devices.brokerPassword), sql`${devices.brokerPassword} not like 'sha256$%'`))
      .orderBy(asc(devices.id)) as Promise<{ id: number; password: string }[]>;

  async function setBrokerPasswords(rows: readonly { id: number; password: string }[]): Promise<void> {
    await store.tx(async () => {
      for (const r of rows) await db.update(devices).set({ brokerPassword: r.password }).where(eq(devices.id, r.id));
    });
  }

  // ---- what other domains ask ----

  /** the application's device ids (the tags domain rewrites its devices' sensor tag maps) */
  async function idsOf(appId: number): Promise<number[]> {
    const rows = await db.select({ id: devices.id }).from(devices).where(eq(devices.appId, appId)).orderBy(devices.id);
    return rows.map((r) => r.id);
  }

  /** the application's devices whose tag map text matches `pattern` (a LIKE pattern, `\` escapes) */
  const tagMapsMatching = (appId: number, pattern: string) =>
    db
      .select({ id: devices.id, tags: devices.tags })
      .from(devices)
      .where(and(eq(devices.appId, appId), likeEscaped(devices.tags, pattern)))
      .orderBy(asc(devices.id));

  async function setTags(id: number, tags: string): Promise<void> {
    await db.update(devices).set({ tags }).where(eq(devices.id, id));
  }

  /** how many devices name this LoRa network server (the lora domain refuses to remove a server in use) */
  async function countOnNetworkServer(serverId: number): Promise<number> {
    return (await db.select({ n: count() }).from(devices).where(eq(devices.networkServerId, serverId)).get())?.n ?? 0;
  }

  // ---- device tokens (Sentra end devices) ----

  async function insertToken(appId: number, tokenHash: string, createdAt: number): Promise<DeviceTokenRow> {
    const [row] = await db.insert(deviceTokens).values({ appId, tokenHash, createdAt }).returning();
    return row!;
  }
  const tokenByHash = (tokenHash: string) =>
    db.select().from(deviceTokens).where(eq(deviceTokens.tokenHash, tokenHash)).get();
  const tokenById = (id: number) => db.select().from(deviceTokens).where(eq(deviceTokens.id, id)).get();
  async function tokenConnected(id: number, ts: number): Promise<void> {
    await db.update(deviceTokens).set({ connectedAt: ts }).where(eq(deviceTokens.id, id));
  }
  async function removeToken(id: number): Promise<void> {
    await db.delete(deviceTokens).where(eq(deviceTokens.id, id));
  }

  // ---- gateway sightings ----

  async function sightingCount(): Promise<number> {
    return (await db.select({ n: count() }).from(gatewaySightings).get())?.n ?? 0;
  }

  /**
   * `uid` heard at `ts`: its sighting made or renewed, in one transaction. A new one when `limit` are kept first
   * removes the one heard longest ago. `known`: the caller has written it before (no need to look). Answers whether it
   * was new, which one went, and for a new one how many are kept now.
   */
  async function recordSighting(uid: string, ts: number, limit: number, known: boolean) {
    return store.tx(async () => {
      const fresh =
        !known &&
        !(await db
          .select({ uid: gatewaySightings.uid })
          .from(gatewaySightings)
          .where(eq(gatewaySightings.uid, uid))
          .get());
      let evicted: string | undefined;
      let kept: number | undefined;
      if (fresh) {
        kept = await sightingCount();
        if (kept >= limit) {
          const oldest = await db
            .select({ uid: gatewaySightings.uid })
            .from(gatewaySightings)
            .orderBy(asc(gatewaySightings.lastTs), asc(gatewaySightings.uid))
            .limit(1)
            .get();
          if (oldest) {
            await db.delete(gatewaySightings).where(eq(gatewaySightings.uid, oldest.uid));
            evicted = oldest.uid;
            kept--;
          }
        }
        kept++;
      }
      // written by hand: drizzle's SQLite dialect names the conflict target `"table"."column"`, which PostgreSQL
      // refuses (its ON CONFLICT takes bare column names)
      await store.exec(
        sql`insert into gateway_sightings (uid, first_ts, last_ts) values (${uid}, ${ts}, ${ts}) on conflict (uid) do update set last_ts = excluded.last_ts`,
      );
      return { fresh, evicted, kept };
    });
  }

  async function pruneSightings(before: number): Promise<number> {
    const gone = await db
      .delete(gatewaySightings)
      .where(lt(gatewaySightings.lastTs, before))
      .returning({ uid: gatewaySightings.uid });
    return gone.length;
  }

  async function sightingOf(uid: string): Promise<number | undefined> {
    return (
      await db.select({ ts: gatewaySightings.lastTs }).from(gatewaySightings).where(eq(gatewaySightings.uid, uid)).get()
    )?.ts;
  }

  // ---- the rules domain's read (the node-expiry watch's seed) ----

  /** the application's devices with their last online and offline changes (null: never) */
  const presenceOf = (appId: number): Promise<Array<{ id: number; on: number | null; off: number | null }>> =>
    db
      .select({ id: devices.id, on: devices.lastOnlineTs, off: devices.lastOfflineTs })
      .from(devices)
      .where(eq(devices.appId, appId))
      .orderBy(devices.id);

  return {
    byId,
    signInStatesOf,
    uidsRegistered,
    presenceOf,
    serialTaken,
    insert,
    update,
    remove,
    detailsOf,
    byBrokerUsername,
    byUid,
    byToken,
    byTopic,
    byDevEui,
    onlineOf,
    markPresence,
    moveLastSeen,
    onlineSilentSince,
    onlineUnheardSince,
    plainBrokerPasswords,
    setBrokerPasswords,
    idsOf,
    tagMapsMatching,
    setTags,
    countOnNetworkServer,
    insertToken,
    tokenByHash,
    tokenById,
    tokenConnected,
    removeToken,
    sightingCount,
    recordSighting,
    pruneSightings,
    sightingOf,
    /** the list's filters and the pickers' search (device-search.ts) */
    search: createDeviceSearch(store),
  };
}

export type DevicesStore = ReturnType<typeof createDevicesStore>;

/** A device as the card editor's selection lists it: names, its declared sensors and its tags (JSON text). */
export interface SelectionDevice {
  id: number;
  name: string;
  label: string | null;
  serial: string;
  sensors: string;
  tags: string;
}

/** The application's devices for the card editor's selection (dashboards domain), by id. */
export function devicesForSelection(store: AppStore, appId: number): Promise<SelectionDevice[]> {
  return store.db
    .select({
      id: devices.id,
      name: devices.name,
      label: devices.label,
      serial: devices.serialNumber,
      sensors: devices.sensors,
      tags: devices.tags,
    })
    .from(devices)
    .where(eq(devices.appId, appId))
    .orderBy(asc(devices.id));
}
