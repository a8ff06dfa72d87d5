// The devices a card reads: one device by id (fresh, one primary-key read) or an application's devices matching tags
// (a per-application snapshot kept for a few seconds, patched in place when a device goes online or offline, dropped
// when a device is added, removed or disabled). Tag matching: a query tag `t` matches a device having a value `v` in
// some tag category `p` when t = v or t = "p:v"; several tags match any of them; no tags match every device.
import type Database from 'better-sqlite3';

export interface DeviceFacts {
  id: number;
  appId: number;
  name: string;
  label: string;
  serialNumber: string;
  category: number;
  categoryText: string;
  deviceType: string;
  firmwareVersion: string;
  latitude: number | null;
  longitude: number | null;
  online: boolean;
  lastOnlineTs: number | null;
  disabled: boolean;
  tags: Record<string, string[]>;
  /** "p:v" and "v" of every tag value, for matching */
  tagKeys: Set<string>;
}

interface Row {
  id: number;
  app_id: number;
  name: string;
  label: string | null;
  serial_number: string;
  category: number;
  category_text: string;
  device_type: string;
  firmware_version: string;
  latitude: number | null;
  longitude: number | null;
  online: number;
  last_online_ts: number | null;
  disabled: number;
  tags: string;
}

const COLS = 'id, app_id, name, label, serial_number, category, category_text, device_type, firmware_version, latitude, longitude, online, last_online_ts, disabled, tags';

function facts(r: Row): DeviceFacts {
  let tags: Record<string, string[]> = {};
  try {
    const parsed = JSON.parse(r.tags) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) tags = parsed as Record<string, string[]>;
  } catch {
    // a damaged tags column matches no tag
  }
  const tagKeys = new Set<string>();
  for (const [p, values] of Object.entries(tags)) {
    if (!Array.isArray(values)) continue;
    for (const v of values) {
      tagKeys.add(String(v));
      tagKeys.add(`${p}:${v}`);
    }
  }
  return {
    id: r.id,
    appId: r.app_id,
    name: r.name,
    label: r.label ?? r.name,
    serialNumber: r.serial_number,
    category: r.category,
    categoryText: r.category_text,
    deviceType: r.device_type,
    firmwareVersion: r.firmware_version,
    latitude: r.latitude,
    longitude: r.longitude,
    online: r.online === 1,
    lastOnlineTs: r.last_online_ts,
    disabled: r.disabled === 1,
    tags,
    tagKeys,
  };
}

export function matchesTags(d: DeviceFacts, tags: readonly string[] | undefined): boolean {
  if (!tags || tags.length === 0) return true;
  for (const t of tags) if (d.tagKeys.has(t)) return true;
  return false;
}

interface Snapshot {
  at: number;
  devices: DeviceFacts[];
  byId: Map<number, DeviceFacts>;
}

export function createDeviceDirectory(sqlite: Database.Database, opts: { ttlMs?: number; now?: () => number } = {}) {
  const ttl = opts.ttlMs ?? 3000;
  const now = opts.now ?? Date.now;
  const one = sqlite.prepare(`SELECT ${COLS} FROM devices WHERE id = ? AND app_id = ?`);
  const all = sqlite.prepare(`SELECT ${COLS} FROM devices WHERE app_id = ? ORDER BY id`);
  const snapshots = new Map<number, Snapshot>();

  function snapshot(appId: number): Snapshot {
    const hit = snapshots.get(appId);
    if (hit && now() - hit.at < ttl) return hit;
    const devices = (all.all(appId) as Row[]).map(facts);
    const s = { at: now(), devices, byId: new Map(devices.map((d) => [d.id, d])) };
    snapshots.set(appId, s);
    return s;
  }

  return {
    /** one device of the application, read now; null for an unknown id or another application's device */
    device(appId: number, id: number): DeviceFacts | null {
      if (!Number.isSafeInteger(id)) return null;
      const row = one.get(id, appId) as Row | undefined;
      return row ? facts(row) : null;
    },
    /** the application's devices matching the tags (all of them for none), by id */
    matching(appId: number, tags: readonly string[] | undefined): DeviceFacts[] {
      const s = snapshot(appId);
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
      if (appId === undefined) snapshots.clear();
      else snapshots.delete(appId);
    },
  };
}

export type DeviceDirectory = ReturnType<typeof createDeviceDirectory>;
