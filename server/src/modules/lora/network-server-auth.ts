// How a LoRa network-server integration signs in on the broker: with one of the application's API credentials pairs
// (credentials_id as MQTT username, credentials_secret as password), compared by the secret's SHA-256.
import { hashToken } from '../../platform/crypto.js';
import type { LoraStore } from './lora.store.js';

/** the credentials domain's answer: the pair of this id and secret hash (credentials.store.ts) */
export type CredentialsPairByHash = (
  credentialsId: string,
  secretHash: string,
) => Promise<{ id: number; appId: number } | undefined>;

export const loraNetworkServerSignIn =
  (pairByHash: CredentialsPairByHash) =>
  async (credentialsId: string, secret: string): Promise<{ appId: number; credentialsRowId: number } | null> => {
    if (credentialsId.length > 32 || secret.length > 256) return null;
    // the secret's hash is unique enough to find the pair; the id must match too
    const row = await pairByHash(credentialsId, hashToken(secret));
    return row ? { appId: row.appId, credentialsRowId: row.id } : null;
  };

/** How long what an application's LoRa server entries say is remembered: an edited entry counts within this time. */
export const LORA_APPLICATIONS_CACHE_MS = 2000;

/**
 * Which application a network server's topic names: its second level (application/<level>/device/...) is Sentra's
 * numeric application id, or the network server's own application id recorded on one of the application's LoRa
 * server entries (ChirpStack v4 puts its application UUID there). Asked on every uplink and publish check, so it is
 * answered at once from memory: every entry that records such an id, read at start, again at once after this
 * gateway's own edits (`reload`), and in the background when older than LORA_APPLICATIONS_CACHE_MS (another gateway's
 * edits, scale-out).
 */
export async function loraApplications(
  store: Pick<LoraStore, 'applicationUuids'>,
  opts: { now?: () => number; onError?: (err: unknown) => void } = {},
) {
  const now = opts.now ?? Date.now;
  let byApp = new Map<number, string[]>();
  let byServer = new Map<number, { appId: number; uuid: string }>();
  let at = 0;
  let generation = 0;
  let refreshing = false;

  /** reads the entries again; a read that started before another one finished is not applied over it */
  async function reload(): Promise<void> {
    const mine = ++generation;
    const rows = await store.applicationUuids();
    if (mine !== generation) return;
    const apps = new Map<number, string[]>();
    for (const r of rows) {
      const uuids = apps.get(r.appId) ?? [];
      if (!uuids.includes(r.uuid)) uuids.push(r.uuid);
      apps.set(r.appId, uuids);
    }
    byApp = apps;
    byServer = new Map(rows.map((r) => [r.id, { appId: r.appId, uuid: r.uuid }]));
    at = now();
  }

  function fresh() {
    if (refreshing || now() - at < LORA_APPLICATIONS_CACHE_MS) return;
    refreshing = true;
    reload()
      .catch((err) => opts.onError?.(err))
      .finally(() => (refreshing = false));
  }

  function uuidsOf(appId: number): string[] {
    fresh();
    return byApp.get(appId) ?? [];
  }

  await reload();
  return {
    /** the network server's application ids of the application (ChirpStack UUIDs) */
    uuidsOf,
    /** whether a topic's application level names the application */
    names: (appId: number, level: string) => level === String(appId) || uuidsOf(appId).includes(level.toLowerCase()),
    /** the level downlinks to a device of this server entry are published under */
    levelOf(appId: number, serverId: number | null): string {
      if (serverId === null) return String(appId);
      fresh();
      const entry = byServer.get(serverId);
      return entry && entry.appId === appId ? entry.uuid : String(appId);
    },
    reload,
  };
}
export type LoraApplications = Awaited<ReturnType<typeof loraApplications>>;
