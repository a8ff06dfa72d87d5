// The registry's searches: the device list's filters (spec 03 section 2.1, newest first) and the pickers' search
// (issue 38, ordered for choosing). On SQLite over the trigram full-text index of name and serial number that this
// module keeps (created at open, kept by triggers); on PostgreSQL the same substrings by ILIKE, and the tag maps read
// with its JSON functions.
import { and, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import type { EngineKind } from '../../platform/db/store.js';
import { devices, type DeviceRow } from './devices.table.js';
import { containing, escapeLike, likeEscaped } from '../../platform/db/like.js';
import { pageOf } from '../../platform/db/page.js';

export interface DevicePick {
  search?: string;
  ids?: number[];
  /** any of: `prefix:value`, or a bare value of any category */
  tags?: string[];
  page: number;
  size: number;
}

export interface DeviceFilter {
  search?: string;
  status?: ('on' | 'off')[];
  category?: number;
  type?: string;
  /** `prefix:value` */
  tag?: string;
  page: number;
  size: number;
}

/**
 * Name and serial substrings (on SQLite through the trigram index, 3+ characters; shorter ones as prefixes, which the
 * index cannot find); digits also match the id. Both engines match without regard to ASCII case.
 */
function searchCondition(kind: EngineKind, search: string): SQL {
  const byId = /^\d{1,15}$/.test(search) ? [eq(devices.id, Number(search))] : [];
  if (search.length >= 3 && kind === 'sqlite') {
    const phrase = `"${search.replace(/"/g, '""')}"`;
    return or(sql`${devices.id} in (select rowid from devices_search where devices_search match ${phrase})`, ...byId)!;
  }
  const pattern = search.length >= 3 ? containing(search) : `${escapeLike(search)}%`;
  return or(likeEscaped(devices.name, pattern), likeEscaped(devices.serialNumber, pattern), ...byId)!;
}

/** the device's tag values, as rows `p.key` (its category) and `v` (one value), a damaged map none on SQLite */
function tagValues(kind: EngineKind, where: SQL) {
  if (kind === 'sqlite')
    return sql`case when json_valid(${devices.tags}) then exists (select 1 from json_each(${devices.tags}) p, json_each(case when p.type = 'array' then p.value else '[]' end) v where ${where}) else 0 end`;
  // PostgreSQL 15 has no test for valid JSON text: sentra_jsonb (migration 0002) answers null for damaged text, so a map
  // damaged by hand matches nothing, as on SQLite
  const map = sql`sentra_jsonb(${devices.tags})`;
  return sql`exists (select 1 from jsonb_each(case when jsonb_typeof(${map}) = 'object' then ${map} else '{}'::jsonb end) p, jsonb_array_elements(case when jsonb_typeof(p.value) = 'array' then p.value else '[]'::jsonb end) v where ${where})`;
}

/** `v` is the text `value` (SQLite's json_each gives the text itself; PostgreSQL's jsonb a JSON string) */
const valueIs = (kind: EngineKind, value: string) =>
  kind === 'sqlite' ? sql`v.value = ${value}` : sql`v.value = to_jsonb(cast(${value} as text))`;

/** the device's tag map holds `value` under `prefix` */
function tagCondition(kind: EngineKind, tag: string) {
  const at = tag.indexOf(':');
  return tagValues(kind, sql`p.key = ${tag.slice(0, at)} and ${valueIs(kind, tag.slice(at + 1))}`);
}

/** the device carries one of `wanted` (`prefix:value`, or a bare value under any category) */
function anyTagCondition(kind: EngineKind, wanted: readonly string[]) {
  const matches = wanted.map((t) => {
    const at = t.indexOf(':');
    return at < 0 ? valueIs(kind, t) : sql`(p.key = ${t.slice(0, at)} and ${valueIs(kind, t.slice(at + 1))})`;
  });
  return tagValues(kind, sql`(${sql.join(matches, sql` or `)})`);
}

export type PickedDevice = Pick<DeviceRow, 'id' | 'name' | 'label' | 'category' | 'deviceType' | 'online'> & {
  serial: string;
};

export function createDeviceSearch(store: AppStore) {
  const { db, kind } = store;
  let indexed: Promise<void> | undefined;

  /**
   * A picker's page: the whole application searched like the list (name and serial substrings, the id), ordered for
   * choosing rather than by age: the exact id first, then names that start with the text, then by name (ASCII case
   * folded), then by id.
   */
  async function pick(appId: number, q: DevicePick): Promise<{ rows: PickedDevice[]; total: number }> {
    const search = q.search ?? '';
    const where = and(
      eq(devices.appId, appId),
      search ? searchCondition(kind, search) : undefined,
      q.ids?.length ? inArray(devices.id, q.ids) : undefined,
      q.tags?.length ? anyTagCondition(kind, q.tags) : undefined,
    );
    const total = (await db.select({ n: count() }).from(devices).where(where).get())?.n ?? 0;
    const exactId = /^\d{1,15}$/.test(search) ? Number(search) : -1;
    const rows = await db
      .select({
        id: devices.id,
        name: devices.name,
        label: devices.label,
        serial: devices.serialNumber,
        category: devices.category,
        deviceType: devices.deviceType,
        online: devices.online,
      })
      .from(devices)
      .where(where)
      .orderBy(
        ...(search
          ? [
              sql`case when ${devices.id} = ${exactId} then 0 else 1 end`,
              sql`case when ${likeEscaped(devices.name, `${escapeLike(search)}%`)} then 0 else 1 end`,
            ]
          : []),
        sql`lower(${devices.name})`,
        devices.id,
      )
      .limit(q.size)
      .offset(q.page * q.size);
    return { rows, total };
  }

  /** the list's page, newest first */
  async function filter(appId: number, q: DeviceFilter): Promise<{ rows: DeviceRow[]; total: number }> {
    const status = [...new Set(q.status ?? [])];
    const where = and(
      eq(devices.appId, appId),
      status.length === 1 ? eq(devices.online, status[0] === 'on') : undefined,
      q.category !== undefined ? eq(devices.category, q.category) : undefined,
      q.type ? eq(devices.deviceType, q.type) : undefined,
      q.search ? searchCondition(kind, q.search) : undefined,
      q.tag ? tagCondition(kind, q.tag) : undefined,
    );
    return pageOf(db, devices, where, [desc(devices.id)], q);
  }

  return {
    pick,
    filter,
    /** SQLite's trigram index, made once (the domain awaits it at start); nothing on PostgreSQL */
    ensureIndex: () => (indexed ??= kind === 'sqlite' ? ensureSearchIndex(store) : Promise.resolve()),
  };
}

/**
 * The trigram full-text index over name and serial number, kept by triggers: substring search stays an index probe
 * with 10,000 devices. Virtual tables are outside drizzle's schema, so it is created here, idempotently.
 */
async function ensureSearchIndex(store: AppStore) {
  const exists = await store.one(
    sql`select 1 as x from sqlite_master where type = 'table' and name = 'devices_search'`,
  );
  if (exists) return;
  const statements = [
    `create virtual table devices_search using fts5(name, serial_number, content='devices', content_rowid='id', tokenize='trigram')`,
    `create trigger devices_search_ai after insert on devices begin
      insert into devices_search(rowid, name, serial_number) values (new.id, new.name, new.serial_number);
    end`,
    `create trigger devices_search_ad after delete on devices begin
      insert into devices_search(devices_search, rowid, name, serial_number) values ('delete', old.id, old.name, old.serial_number);
    end`,
    `create trigger devices_search_au after update of name, serial_number on devices begin
      insert into devices_search(devices_search, rowid, name, serial_number) values ('delete', old.id, old.name, old.serial_number);
      insert into devices_search(rowid, name, serial_number) values (new.id, new.name, new.serial_number);
    end`,
    `insert into devices_search(devices_search) values ('rebuild')`,
  ];
  await store.tx(async () => {
    for (const s of statements) await store.exec(sql.raw(s));
  });
}
