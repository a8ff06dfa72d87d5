// What other domains read of a device (the card engine's device functions, list and map cards): its facts as stored
// in the registry's row, one by id or every device of an application, and the tag keys a query matches against.
// On the storage boundary's store (either engine), prepared once: the card query path asks these on every evaluation.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { devices } from './devices.table.js';

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

/** the registry columns a card reads, as drizzle maps them (booleans as booleans) */
const COLS = {
  id: devices.id,
  appId: devices.appId,
  name: devices.name,
  label: devices.label,
  serialNumber: devices.serialNumber,
  category: devices.category,
  categoryText: devices.categoryText,
  deviceType: devices.deviceType,
  firmwareVersion: devices.firmwareVersion,
  latitude: devices.latitude,
  longitude: devices.longitude,
  online: devices.online,
  lastOnlineTs: devices.lastOnlineTs,
  disabled: devices.disabled,
  tags: devices.tags,
};

type Row = Omit<DeviceFacts, 'tags' | 'tagKeys' | 'label'> & { label: string | null; tags: string };

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
    appId: r.appId,
    name: r.name,
    label: r.label ?? r.name,
    serialNumber: r.serialNumber,
    category: r.category,
    categoryText: r.categoryText,
    deviceType: r.deviceType,
    firmwareVersion: r.firmwareVersion,
    latitude: r.latitude,
    longitude: r.longitude,
    online: !!r.online,
    lastOnlineTs: r.lastOnlineTs,
    disabled: !!r.disabled,
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

export function createDeviceFactsReads(store: AppStore) {
  // prepared once (a builder render per call costs ~10 times the read on SQLite)
  const one = store.db
    .select(COLS)
    .from(devices)
    .where(and(eq(devices.id, sql.placeholder('id')), eq(devices.appId, sql.placeholder('appId'))))
    .prepare();
  const all = store.db
    .select(COLS)
    .from(devices)
    .where(eq(devices.appId, sql.placeholder('appId')))
    .orderBy(asc(devices.id))
    .prepare();
  return {
    /** one device of the application; null for an unknown id or another application's device */
    async one(appId: number, id: number): Promise<DeviceFacts | null> {
      const row = await one.get({ id, appId });
      return row ? facts(row) : null;
    },
    /** every device of the application, by id */
    async ofApplication(appId: number): Promise<DeviceFacts[]> {
      return (await all.all({ appId })).map(facts);
    },
  };
}

export type DeviceFactsReads = ReturnType<typeof createDeviceFactsReads>;
