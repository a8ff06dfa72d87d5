// Tag categories and options of an application, and the check every device (and sensor) tag map goes through.
import { and, asc, count, eq, inArray, or, sql, type AnyColumn } from 'drizzle-orm';
import { T, TAG_TYPE_TEXT, TagCode, TagType, keyFromLabel, type DeviceTags, type TagCategory } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { conflict, fail, invalid, notFound, type FieldError } from '../../platform/http/errors.js';
import { tagCategories, tagDefinitions } from './tags.table.js';
import { devices } from '../devices/devices.table.js';
import { sensorSettings } from '../telemetry/sensor-settings.table.js';
import { checkTagValues } from './tags.rules.js';

type CategoryRow = typeof tagCategories.$inferSelect;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
// drizzle's like() has no ESCAPE clause: wildcards typed by the user must stay literal
const like = (column: AnyColumn, pattern: string) => sql`${column} like ${pattern} escape '\\'`;

export function createTagsService(db: Db, opts: { now?: () => number } = {}) {
  const now = opts.now ?? Date.now;

  function definitionsOf(rows: CategoryRow[]) {
    const ids = rows.map((r) => r.id);
    const defs = ids.length
      ? db
          .select()
          .from(tagDefinitions)
          .where(inArray(tagDefinitions.categoryId, ids))
          .orderBy(asc(tagDefinitions.id))
          .all()
      : [];
    const by = new Map<number, (typeof defs)[number][]>();
    for (const d of defs) by.set(d.categoryId, [...(by.get(d.categoryId) ?? []), d]);
    return by;
  }

  function present(rows: CategoryRow[]): TagCategory[] {
    const defs = definitionsOf(rows);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      category: r.category,
      category_text: TAG_TYPE_TEXT[r.category] ?? String(r.category),
      definitions: (defs.get(r.id) ?? []).map((d) => ({ name: d.name, name_lc: d.nameLc, prefix: r.prefix })),
    }));
  }

  const byPrefix = (appId: number, prefix: string) =>
    db
      .select()
      .from(tagCategories)
      .where(and(eq(tagCategories.appId, appId), eq(tagCategories.prefix, prefix)))
      .get();

  function all(appId: number) {
    return present(
      db.select().from(tagCategories).where(eq(tagCategories.appId, appId)).orderBy(asc(tagCategories.id)).all(),
    );
  }

  function list(appId: number, q: { search?: string; page: number; size: number }) {
    const pattern = q.search ? `%${escapeLike(q.search)}%` : undefined;
    const where = and(
      eq(tagCategories.appId, appId),
      pattern ? or(like(tagCategories.name, pattern), like(tagCategories.prefix, pattern)) : undefined,
    );
    const total = db.select({ n: count() }).from(tagCategories).where(where).get()?.n ?? 0;
    const rows = db
      .select()
      .from(tagCategories)
      .where(where)
      .orderBy(asc(tagCategories.id))
      .limit(q.size)
      .offset(q.page * q.size)
      .all();
    return { categories: present(rows), total, page: q.page, size: q.size };
  }

  function exists(appId: number, q: { prefix?: string; name?: string }) {
    const prefix = q.prefix || (q.name ? keyFromLabel(q.name) : '');
    return { value: prefix ? Boolean(byPrefix(appId, prefix)) : false };
  }

  function addCategory(appId: number, input: { name: string; prefix?: string; category: number }) {
    const prefix = input.prefix || keyFromLabel(input.name);
    if (prefix.length > 32) throw invalid(T.common.max(32), [{ path: 'prefix', message: T.common.max(32) }]);
    if (byPrefix(appId, prefix)) throw conflict(T.tags.serverKeyTaken);
    const row = db
      .insert(tagCategories)
      .values({ appId, name: input.name, prefix, category: input.category, createdAt: now() })
      .returning()
      .get();
    return present([row])[0]!;
  }

  function addDefinition(appId: number, input: { name: string; prefix: string; name_lc?: string }) {
    const category = byPrefix(appId, input.prefix);
    if (!category) throw notFound(T.tags.serverUnknownCategory);
    if (category.category !== TagType.SELECTION) throw fail(TagCode.OPTION_NOT_ALLOWED, T.tags.optionNotAllowed);
    const nameLc = input.name_lc || keyFromLabel(input.name);
    const taken = db
      .select({ id: tagDefinitions.id })
      .from(tagDefinitions)
      .where(and(eq(tagDefinitions.categoryId, category.id), eq(tagDefinitions.nameLc, nameLc)))
      .get();
    if (taken) throw fail(TagCode.OPTION_DUPLICATE, T.tags.optionDuplicate);
    db.insert(tagDefinitions).values({ categoryId: category.id, name: input.name, nameLc, createdAt: now() }).run();
    return { name: input.name, name_lc: nameLc, prefix: category.prefix };
  }

  const categoryOf = (appId: number, id: number) => {
    const row = db
      .select()
      .from(tagCategories)
      .where(and(eq(tagCategories.appId, appId), eq(tagCategories.id, id)))
      .get();
    // another application's category is as unknown as a missing one
    if (!row) throw notFound(T.tags.serverUnknownCategory);
    return row;
  };
  const optionOf = (appId: number, prefix: string, nameLc: string) => {
    const category = byPrefix(appId, prefix);
    if (!category) throw notFound(T.tags.serverUnknownCategory);
    const option = db
      .select()
      .from(tagDefinitions)
      .where(and(eq(tagDefinitions.categoryId, category.id), eq(tagDefinitions.nameLc, nameLc)))
      .get();
    if (!option) throw notFound(T.tags.serverUnknownOption);
    return { category, option };
  };

  /**
   * Rewrites every device and sensor tag map of the application that holds `prefix` (all of it, or one value of it);
   * answers how many devices changed (a device counts once, whether its own map or one of its sensors' changed).
   */
  function dropFromTagMaps(appId: number, prefix: string, value?: string): number {
    const strip = (text: string): string | null => {
      let map: Record<string, unknown>;
      try {
        map = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return null;
      }
      if (!map || typeof map !== 'object' || Array.isArray(map) || !(prefix in map)) return null;
      const next = { ...map };
      if (value === undefined) delete next[prefix];
      else {
        const values = Array.isArray(next[prefix]) ? (next[prefix] as unknown[]) : [];
        if (!values.includes(value)) return null;
        const kept = values.filter((v) => v !== value);
        if (kept.length) next[prefix] = kept;
        else delete next[prefix];
      }
      return JSON.stringify(next);
    };
    // a cheap text filter first: only maps that mention the key are parsed
    const mentions = `%${escapeLike(JSON.stringify(prefix))}%`;
    const changed = new Set<number>();
    for (const d of db
      .select({ id: devices.id, tags: devices.tags })
      .from(devices)
      .where(and(eq(devices.appId, appId), like(devices.tags, mentions)))
      .all()) {
      const next = strip(d.tags);
      if (next === null) continue;
      db.update(devices).set({ tags: next }).where(eq(devices.id, d.id)).run();
      changed.add(d.id);
    }
    const sensors = db
      .select({ deviceId: sensorSettings.deviceId, key: sensorSettings.key, tags: sensorSettings.tags })
      .from(sensorSettings)
      .innerJoin(devices, eq(devices.id, sensorSettings.deviceId))
      .where(and(eq(devices.appId, appId), like(sensorSettings.tags, mentions)))
      .all();
    for (const r of sensors) {
      const next = strip(r.tags);
      if (next === null) continue;
      db.update(sensorSettings)
        .set({ tags: next, updatedAt: now() })
        .where(and(eq(sensorSettings.deviceId, r.deviceId), eq(sensorSettings.key, r.key)))
        .run();
      changed.add(r.deviceId);
    }
    return changed.size;
  }

  function editCategory(appId: number, input: { id: number; name: string }) {
    const row = categoryOf(appId, input.id);
    db.update(tagCategories).set({ name: input.name }).where(eq(tagCategories.id, row.id)).run();
    return present([{ ...row, name: input.name }])[0]!;
  }

  function removeCategory(appId: number, input: { id: number }) {
    const row = categoryOf(appId, input.id);
    return db.transaction(() => {
      const changed = dropFromTagMaps(appId, row.prefix);
      db.delete(tagCategories).where(eq(tagCategories.id, row.id)).run(); // its options go with it (cascade)
      return { devices: changed };
    });
  }

  function editDefinition(appId: number, input: { prefix: string; name_lc: string; name: string }) {
    const { category, option } = optionOf(appId, input.prefix, input.name_lc);
    db.update(tagDefinitions).set({ name: input.name }).where(eq(tagDefinitions.id, option.id)).run();
    return { name: input.name, name_lc: option.nameLc, prefix: category.prefix };
  }

  function removeDefinition(appId: number, input: { prefix: string; name_lc: string }) {
    const { category, option } = optionOf(appId, input.prefix, input.name_lc);
    return db.transaction(() => {
      const changed = dropFromTagMaps(appId, category.prefix, option.nameLc);
      db.delete(tagDefinitions).where(eq(tagDefinitions.id, option.id)).run();
      return { devices: changed };
    });
  }

  /**
   * Checks a tag map against the application's categories and answers it normalised (empty lists dropped,
   * selection options by name_lc). An unknown category or a bad value is -10 with the path of the offending value.
   */
  function normalise(appId: number, tags: DeviceTags, path = 'tags'): DeviceTags {
    const prefixes = Object.keys(tags);
    if (!prefixes.length) return {};
    const rows = db
      .select()
      .from(tagCategories)
      .where(and(eq(tagCategories.appId, appId), inArray(tagCategories.prefix, prefixes)))
      .all();
    const defs = definitionsOf(rows);
    const out: DeviceTags = {};
    const errors: FieldError[] = [];
    for (const prefix of prefixes) {
      const row = rows.find((r) => r.prefix === prefix);
      if (!row) {
        errors.push({ path: `${path}.${prefix}`, message: T.tags.serverUnknownCategory });
        continue;
      }
      const options = new Map((defs.get(row.id) ?? []).map((d) => [d.nameLc, d.name]));
      const checked = checkTagValues({ prefix, category: row.category, options }, tags[prefix]!);
      if (!checked.ok) errors.push({ path: `${path}.${prefix}.${checked.index}`, message: checked.message });
      else if (checked.values.length) out[prefix] = checked.values;
    }
    if (errors.length) throw invalid(`${errors[0]!.path}: ${errors[0]!.message}`, errors);
    return out;
  }

  return {
    all,
    list,
    exists,
    addCategory,
    addDefinition,
    editCategory,
    removeCategory,
    editDefinition,
    removeDefinition,
    normalise,
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
