// Activation evidence: credentials tokens of Sentra end devices (issued, then seen connecting to the broker) and
// gateway UIDs heard on gw/<uid>/up. The broker listener records; provision checks and adds read.
//
// A gateway not registered yet signs in with its UID alone, so anyone can claim to be one: its sightings are bounded.
// One client address may bring at most MAX_UNCLAIMED_PER_ADDRESS distinct UIDs a day (more are refused at CONNECT);
// at most MAX_SIGHTINGS are kept (a new one past it replaces the one heard longest ago); one not heard for
// SIGHTING_TTL_MS is forgotten. A real gateway keeps publishing, so it is heard again within a minute of any of these.
import { hashToken, newToken } from '../../platform/crypto.js';
import type { DevicesStore } from './devices.store.js';

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

/** Activation over the devices store; the count of sightings kept is read once, at start. */
export async function createActivation(
  store: DevicesStore,
  now: () => number,
  limits = { sightings: MAX_SIGHTINGS, perAddress: MAX_UNCLAIMED_PER_ADDRESS },
) {
  /** UIDs heard, least recently written first (renewed on each write) */
  const heardAt = new Map<string, { ts: number; written: number }>();
  /** client address → its unregistered UIDs and when each was last admitted (least recently first) */
  const unclaimedBy = new Map<string, Map<string, number>>();
  let sightings = await store.sightingCount();
  let writes: Promise<unknown> = Promise.resolve();

  async function generateToken(appId: number): Promise<string> {
    const token = newToken(32);
    await store.insertToken(appId, hashToken(token), now());
    return token;
  }

  const tokenByValue = async (token: string) =>
    TOKEN_PATTERN.test(token) ? store.tokenByHash(hashToken(token)) : undefined;

  /** The application's token when a device has connected with it, else undefined. */
  async function connectedToken(appId: number, token: string) {
    const row = await tokenByValue(token);
    return row && row.appId === appId && row.connectedAt !== null ? row : undefined;
  }

  const tokenConnected = (tokenId: number, ts: number) => store.tokenConnected(tokenId, ts);
  const tokenById = (id: number) => store.tokenById(id);
  const removeToken = (tokenId: number) => store.removeToken(tokenId);

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

  /** `uid` heard on gw/<uid>/up at `ts`: written at most every SIGHTING_WRITE_MS (the broker does not wait for it) */
  async function heard(uid: string, ts: number): Promise<void> {
    const seen = heardAt.get(uid);
    if (seen && ts - seen.written < SIGHTING_WRITE_MS) {
      seen.ts = ts;
      return;
    }
    // taken as written before the write: the messages that follow while it runs do not write again
    heardAt.delete(uid);
    heardAt.set(uid, { ts, written: ts });
    if (heardAt.size > limits.sightings) heardAt.delete(heardAt.keys().next().value!);
    // one write at a time: concurrent ones would each find room for their new sighting (PostgreSQL runs them side by
    // side) and the table would outgrow its bound
    const write = writes.then(() => store.recordSighting(uid, ts, limits.sightings, seen !== undefined));
    writes = write.catch(() => undefined);
    const { evicted, kept } = await write;
    if (evicted !== undefined) heardAt.delete(evicted);
    if (kept !== undefined) sightings = kept;
  }

  /** sightings not renewed within SIGHTING_TTL_MS are forgotten (the broker's sweep calls this) */
  async function pruneSightings(ts = now()): Promise<number> {
    const before = ts - SIGHTING_TTL_MS;
    const gone = await store.pruneSightings(before);
    sightings = Math.max(0, sightings - gone);
    for (const [uid, seen] of heardAt) if (seen.ts < before) heardAt.delete(uid);
    return gone;
  }

  /** When the UID was last heard (within SIGHTING_TTL_MS), or undefined if not. */
  async function lastHeard(uid: string): Promise<number | undefined> {
    const ts = heardAt.get(uid)?.ts ?? (await store.sightingOf(uid));
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

export type Activation = Awaited<ReturnType<typeof createActivation>>;
