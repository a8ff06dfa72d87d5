// The registry's searches: the device list's filters (spec 03 section 2.1, newest first) and the pickers' search
// (issue 38, ordered for choosing), both over the trigram full-text index of name and serial number that this module
// keeps (created at open, kept by triggers).
import { and, count, desc, eq, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { DeviceSummary } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { devices, type DeviceRow } from './devices.table.js';

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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
// drizzle's like() has no ESCAPE clause: wildcards typed by the user must stay literal
const like = (column: AnyColumn, pattern: string) => sql`${column} like ${pattern} escape '\\'`;

/** Name and serial substrings through the trigram index (3+ characters), shorter ones as prefixes; digits also match the id. */
function searchCondition(search: string): SQL {
  const byId = /^\d{1,15}$/.test(search) ? [eq(devices.id, Number(search))] : [];
  if (search.length >= 3) {
    const phrase = `"${search.replace(/"/g, '""')}"`;
    return or(sql`${devices.id} in (select rowid from devices_search where devices_search match ${phrase})`, ...byId)!;
  }
  const prefix = `${escapeLike(search)}%`;
  return or(like(devices.name, prefix), like(devices.serialNumber, prefix), ...byId)!;
}

/** the device's tag map holds `value` under `prefix` (a damaged map matches nothing rather than failing the list) */
function tagCondition(tag: string) {
  const at = tag.indexOf(':');
  const prefix = tag.slice(0, at);
  const value = tag.slice(at + 1);
  return sql`case when json_valid(${devices.tags}) then exists (select 1 from json_each(${devices.tags}) p, json_each(case when p.type = 'array' then p.value else '[]' end) v where p.key = ${prefix} and v.value = ${value}) else 0 end`;
}

/** the device carries one of `wanted` (`prefix:value`, or a bare value under any category) */
function anyTagCondition(wanted: readonly string[]) {
  const pairs = wanted.filter((t) => t.includes(':'));
  const bare = wanted.filter((t) => !t.includes(':'));
  const matches = [
    ...pairs.map((t) => sql`(p.key = ${t.slice(0, t.indexOf(':'))} and v.value = ${t.slice(t.indexOf(':') + 1)})`),
    ...bare.map((t) => sql`v.value = ${t}`),
  ];
  return sql`case when json_valid(${devices.tags}) then exists (select 1 from json_each(${devices.tags}) p, json_each(case when p.type = 'array' then p.value else '[]' end) v where ${sql.join(matches, sql` or `)}) else 0 end`;
}

export function createDeviceSearch(db: Db, summary: (r: DeviceRow) => DeviceSummary) {
  ensureSearchIndex(db);

  /**
   * A picker's page: the whole application searched like the list (name and serial substrings, the id), ordered for
   * choosing rather than by age: the exact id first, then names that start with the text, then by name.
   */
  function pick(appId: number, q: DevicePick) {
    const search = q.search ?? '';
    const where = and(
      eq(devices.appId, appId),
      search ? searchCondition(search) : undefined,
      q.ids?.length ? inArray(devices.id, q.ids) : undefined,
      q.tags?.length ? anyTagCondition(q.tags) : undefined,
    );
    const total = db.select({ n: count() }).from(devices).where(where).get()?.n ?? 0;
    const exactId = /^\d{1,15}$/.test(search) ? Number(search) : -1;
    const rows = db
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
        ...(search ? [desc(sql`${devices.id} = ${exactId}`), desc(like(devices.name, `${escapeLike(search)}%`))] : []),
        sql`${devices.name} collate nocase`,
        devices.id,
      )
      .limit(q.size)
      .offset(q.page * q.size)
      .all();
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

  function filter(appId: number, q: DeviceFilter) {
    const status = [...new Set(q.status ?? [])];
    const where = and(
      eq(devices.appId, appId),
      status.length === 1 ? eq(devices.online, status[0] === 'on') : undefined,
      q.category !== undefined ? eq(devices.category, q.category) : undefined,
      q.type ? eq(devices.deviceType, q.type) : undefined,
      q.search ? searchCondition(q.search) : undefined,
      q.tag ? tagCondition(q.tag) : undefined,
    );
    const total = db.select({ n: count() }).from(devices).where(where).get()?.n ?? 0;
    const rows = db
      .select()
      .from(devices)
      .where(where)
      .orderBy(desc(devices.id))
      .limit(q.size)
      .offset(q.page * q.size)
      .all();
    return { devices: rows.map(summary), total, page: q.page, size: q.size };
  }

  return { pick, filter };
}

/**
 * The trigram full-text index over name and serial number, kept by triggers: substring search stays an index probe
 * with 10,000 devices. Virtual tables are outside drizzle's schema, so it is created here, idempotently.
 */
function ensureSearchIndex(db: Db) {
  const exists = db.get(sql`select 1 as x from sqlite_master where type = 'table' and name = 'devices_search'`);
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
  db.transaction((tx) => statements.forEach((s) => tx.run(sql.raw(s))), { behavior: 'immediate' });
}
