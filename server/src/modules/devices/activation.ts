// Activation evidence: credentials tokens of Sentra end devices (issued, then seen connecting to the broker) and
// gateway UIDs heard on gw/<uid>/up. The broker listener records; provision checks and adds read.
//
// A gateway not registered yet signs in with its UID alone, so anyone can claim to be one: its sightings are bounded.
// One client address may bring at most MAX_UNCLAIMED_PER_ADDRESS distinct UIDs a day (more are refused at CONNECT);
// at most MAX_SIGHTINGS are kept (a new one past it replaces the one heard longest ago); one not heard for
// SIGHTING_TTL_MS is forgotten. A real gateway keeps publishing, so it is heard again within a minute of any of these.
import { and, asc, count, eq, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { hashToken, newToken } from '../../platform/crypto.js';
import { deviceTokens, gatewaySightings } from './devices.table.js';

/** A token's username is 64 hex characters: the broker tells it from other usernames by its look. */
export const TOKEN_PATTERN = /^[0-9a-f]{64}$/;
/** Sightings are written at most this often per UID: a gateway publishing every second costs no write each time. */
const SIGHTING_WRITE_MS = 60_000;
/** gateway UIDs kept as heard at most (the table and the memory of them) */
export const MAX_SIGHTINGS = 10_000;
/** a sighting not renewed this long is forgotten (the UID check needs the gateway heard, not heard once long ago) */
export const SIGHTING_TTL_MS = 30 * 86_400_000;
/** distinct unregistered gateway UIDs one client address may bring within UNCLAIMED_WINDOW_MS */
export const MAX_UNCLAIMED_PER_ADDRESS = 256;
const UNCLAIMED_WINDOW_MS = 86_400_000;
/** client addresses whose unregistered UIDs are remembered at most */
const ADDRESSES_KEPT = 10_000;

export function createActivation(
  db: Db,
  now: () => number,
  limits = { sightings: MAX_SIGHTINGS, perAddress: MAX_UNCLAIMED_PER_ADDRESS },
) {
  /** UIDs heard, least recently written first (renewed on each write) */
  const heardAt = new Map<string, { ts: number; written: number }>();
  /** client address → its unregistered UIDs and when each was last admitted (least recently first) */
  const unclaimedBy = new Map<string, Map<string, number>>();
  let sightings = db.select({ n: count() }).from(gatewaySightings).get()?.n ?? 0;

  function generateToken(appId: number): string {
    const token = newToken(32);
    db.insert(deviceTokens)
      .values({ appId, tokenHash: hashToken(token), createdAt: now() })
      .run();
    return token;
  }

  const tokenByValue = (token: string) =>
    TOKEN_PATTERN.test(token)
      ? db
          .select()
          .from(deviceTokens)
          .where(eq(deviceTokens.tokenHash, hashToken(token)))
          .get()
      : undefined;

  /** The application's token when a device has connected with it, else undefined. */
  function connectedToken(appId: number, token: string) {
    const row = tokenByValue(token);
    return row && row.appId === appId && row.connectedAt !== null ? row : undefined;
  }

  function tokenConnected(tokenId: number, ts: number) {
    db.update(deviceTokens).set({ connectedAt: ts }).where(eq(deviceTokens.id, tokenId)).run();
  }

  const tokenById = (id: number) => db.select().from(deviceTokens).where(eq(deviceTokens.id, id)).get();

  const removeToken = (tokenId: number) => db.delete(deviceTokens).where(eq(deviceTokens.id, tokenId)).run();

  /**
   * Whether an unregistered gateway `uid` may sign in from `address`: yes for a UID the address brought within the
   * window, or while the address has brought fewer than the limit.
   */
  function admitUnclaimed(uid: string, address: string | undefined): boolean {
    const key = address || 'unknown';
    const t = now();
    let uids = unclaimedBy.get(key);
    if (uids) {
      for (const [u, at] of uids) {
        if (t - at < UNCLAIMED_WINDOW_MS) break;
        uids.delete(u);
      }
      if (!uids.has(uid) && uids.size >= limits.perAddress) return false;
      uids.delete(uid);
    } else {
      uids = new Map();
      if (unclaimedBy.size >= ADDRESSES_KEPT) unclaimedBy.delete(unclaimedBy.keys().next().value!);
    }
    unclaimedBy.delete(key);
    unclaimedBy.set(key, uids);
    uids.set(uid, t);
    return true;
  }

  function heard(uid: string, ts: number) {
    const seen = heardAt.get(uid);
    if (seen && ts - seen.written < SIGHTING_WRITE_MS) {
      seen.ts = ts;
      return;
    }
    db.transaction((tx) => {
      const fresh =
        !seen &&
        !tx.select({ uid: gatewaySightings.uid }).from(gatewaySightings).where(eq(gatewaySightings.uid, uid)).get();
      if (fresh && sightings >= limits.sightings) {
        // full: the sighting heard longest ago makes room
        const oldest = tx
          .select({ uid: gatewaySightings.uid })
          .from(gatewaySightings)
          .orderBy(asc(gatewaySightings.lastTs))
          .limit(1)
          .get();
        if (oldest) {
          tx.delete(gatewaySightings).where(eq(gatewaySightings.uid, oldest.uid)).run();
          heardAt.delete(oldest.uid);
          sightings--;
        }
      }
      tx.insert(gatewaySightings)
        .values({ uid, firstTs: ts, lastTs: ts })
        .onConflictDoUpdate({ target: gatewaySightings.uid, set: { lastTs: ts } })
        .run();
      if (fresh) sightings++;
    });
    heardAt.delete(uid);
    heardAt.set(uid, { ts, written: ts });
    if (heardAt.size > limits.sightings) heardAt.delete(heardAt.keys().next().value!);
  }

  /** sightings not renewed within SIGHTING_TTL_MS are forgotten (the broker's sweep calls this) */
  function pruneSightings(ts = now()): number {
    const before = ts - SIGHTING_TTL_MS;
    const gone = db.delete(gatewaySightings).where(lt(gatewaySightings.lastTs, before)).run().changes;
    sightings = Math.max(0, sightings - gone);
    for (const [uid, seen] of heardAt) if (seen.ts < before) heardAt.delete(uid);
    return gone;
  }

  /** When the UID was last heard (within SIGHTING_TTL_MS), or undefined if not. */
  function lastHeard(uid: string): number | undefined {
    const seen = heardAt.get(uid);
    const ts =
      seen?.ts ??
      db
        .select({ ts: gatewaySightings.lastTs })
        .from(gatewaySightings)
        .where(and(eq(gatewaySightings.uid, uid), isNotNull(gatewaySightings.lastTs)))
        .get()?.ts;
    return ts !== undefined && now() - ts <= SIGHTING_TTL_MS ? ts : undefined;
  }

  return {
    generateToken,
    tokenByValue,
    tokenById,
    connectedToken,
    tokenConnected,
    removeToken,
    admitUnclaimed,
    heard,
    lastHeard,
    pruneSightings,
    /** sightings kept now (metrics, tests) */
    sightings: () => sightings,
  };
}

export type Activation = ReturnType<typeof createActivation>;
