// The devices a card reads, through the registry's reads (devices/device-facts.ts): one device by id (fresh, one
// primary-key read) or an application's devices matching tags (a per-application snapshot kept for a few seconds,
// patched in place when a device goes online or offline, dropped when a device is added, removed or disabled). The
// reads are asynchronous (either engine); callers asking for the same application's snapshot at once share one read.
import { matchesTags, type DeviceFacts, type DeviceFactsReads } from '../devices/device-facts.js';

interface Snapshot {
  at: number;
  devices: DeviceFacts[];
  byId: Map<number, DeviceFacts>;
}

export function createDeviceDirectory(reads: DeviceFactsReads, opts: { ttlMs?: number; now?: () => number } = {}) {
  const ttl = opts.ttlMs ?? 3000;
  const now = opts.now ?? Date.now;
  const snapshots = new Map<number, Snapshot>();
  const reading = new Map<number, Promise<Snapshot>>();
  // a snapshot read while the application's devices changed is answered but not kept (it may predate the change)
  let generation = 0;

  async function read(appId: number): Promise<Snapshot> {
    const started = generation;
    try {
      const devices = await reads.ofApplication(appId);
      const s = { at: now(), devices, byId: new Map(devices.map((d) => [d.id, d])) };
      if (generation === started) snapshots.set(appId, s);
      return s;
    } finally {
      reading.delete(appId);
    }
  }

  function snapshot(appId: number): Snapshot | Promise<Snapshot> {
    const hit = snapshots.get(appId);
    if (hit && now() - hit.at < ttl) return hit;
    let pending = reading.get(appId);
    if (!pending) reading.set(appId, (pending = read(appId)));
    return pending;
  }

  return {
    /** one device of the application, read now; null for an unknown id or another application's device */
    async device(appId: number, id: number): Promise<DeviceFacts | null> {
      if (!Number.isSafeInteger(id)) return null;
      return reads.one(appId, id);
    },
    /** the application's devices matching the tags (all of them for none), by id */
    async matching(appId: number, tags: readonly string[] | undefined): Promise<DeviceFacts[]> {
      const s = await snapshot(appId);
      return !tags || tags.length === 0 ? s.devices : s.devices.filter((d) => matchesTags(d, tags));
    },
    /** a device went online/offline: patch the snapshot (the registry wrote the row already) */
    presence(deviceId: number, online: boolean, ts: number): number | undefined {
      for (const s of snapshots.values()) {
        const d = s.byId.get(deviceId);
        if (!d) continue;
        d.online = online;
        if (online) d.lastOnlineTs = ts;
        return d.appId;
      }
      return undefined;
    },
    /** a device was added, removed or edited in a way a snapshot cannot follow */
    invalidate(appId?: number): void {
      generation++;
      if (appId === undefined) snapshots.clear();
      else snapshots.delete(appId);
    },
  };
}

export type DeviceDirectory = ReturnType<typeof createDeviceDirectory>;
