// What other domains read of a device (the card engine's device functions, list and map cards): its facts as stored
// in the registry's row, one by id or every device of an application, and the tag keys a query matches against.
// Prepared once: the card query path asks these on every evaluation.
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

const COLS =
  'id, app_id, name, label, serial_number, category, category_text, device_type, firmware_version, latitude, longitude, online, last_online_ts, disabled, tags';

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

/**
 * Tag matching: a query tag `t` matches a device having a value `v` in some tag category `p` when t = v or t = "p:v";
 * several tags match any of them; no tags match every device.
 */
export function matchesTags(d: DeviceFacts, tags: readonly string[] | undefined): boolean {
  if (!tags || tags.length === 0) return true;
  for (const t of tags) if (d.tagKeys.has(t)) return true;
  return false;
}

export function createDeviceFactsReads(sqlite: Database.Database) {
  const one = sqlite.prepare(`SELECT ${COLS} FROM devices WHERE id = ? AND app_id = ?`);
  const all = sqlite.prepare(`SELECT ${COLS} FROM devices WHERE app_id = ? ORDER BY id`);
  return {
    /** one device of the application; null for an unknown id or another application's device */
    one(appId: number, id: number): DeviceFacts | null {
      const row = one.get(id, appId) as Row | undefined;
      return row ? facts(row) : null;
    },
    /** every device of the application, by id */
    ofApplication(appId: number): DeviceFacts[] {
      return (all.all(appId) as Row[]).map(facts);
    },
  };
}

export type DeviceFactsReads = ReturnType<typeof createDeviceFactsReads>;
