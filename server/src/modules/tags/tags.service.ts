// Tag categories and options of an application, and the check every device (and sensor) tag map goes through.
import { T, TAG_TYPE_TEXT, TagCode, TagType, keyFromLabel, type DeviceTags, type TagCategory } from '@sentra/contracts';
import { conflict, fail, invalid, notFound, type FieldError } from '../../platform/http/errors.js';
import { isUniqueViolation } from '../../platform/db/unique.js';
import type { TagCategoryRow, TagsStore } from './tags.store.js';
import { checkTagValues } from './tags.rules.js';
import { containing } from '../../platform/db/like.js';

/** What the tags domain rewrites when a category or an option goes: the devices' and their sensors' tag maps. */
export interface TagMaps {
  /** the devices domain: its application's device maps whose text matches a LIKE pattern, and their ids */
  devices: {
    tagMapsMatching(appId: number, pattern: string): Promise<{ id: number; tags: string }[]>;
    setTags(id: number, tags: string): Promise<void>;
    idsOf(appId: number): Promise<number[]>;
  };
  /** the telemetry domain's sensor settings of those devices */
  sensors: {
    tagMapsMatching(
      deviceIds: readonly number[],
      pattern: string,
    ): Promise<{ deviceId: number; key: string; tags: string }[]>;
    setTags(deviceId: number, key: string, tags: string, updatedAt: number): Promise<void>;
  };
}

export function createTagsService(store: TagsStore, maps: TagMaps, opts: { now?: () => number } = {}) {
  const now = opts.now ?? Date.now;

  async function definitionsOf(rows: TagCategoryRow[]) {
    const defs = await store.definitionsOf(rows.map((r) => r.id));
    const by = new Map<number, (typeof defs)[number][]>();
    for (const d of defs) by.set(d.categoryId, [...(by.get(d.categoryId) ?? []), d]);
    return by;
  }

  async function present(rows: TagCategoryRow[]): Promise<TagCategory[]> {
    const defs = await definitionsOf(rows);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      category: r.category,
      category_text: TAG_TYPE_TEXT[r.category] ?? String(r.category),
      definitions: (defs.get(r.id) ?? []).map((d) => ({ name: d.name, name_lc: d.nameLc, prefix: r.prefix })),
    }));
  }

  const byPrefix = store.categoryByPrefix;

  const all = async (appId: number) => present(await store.categories(appId));

  async function list(appId: number, q: { search?: string; page: number; size: number }) {
    const { rows, total } = await store.page(appId, q);
    return { categories: await present(rows), total, page: q.page, size: q.size };
  }

  async function exists(appId: number, q: { prefix?: string; name?: string }) {
    const prefix = q.prefix || (q.name ? keyFromLabel(q.name) : '');
    return { value: prefix ? Boolean(await byPrefix(appId, prefix)) : false };
  }

  async function addCategory(appId: number, input: { name: string; prefix?: string; category: number }) {
    const prefix = input.prefix || keyFromLabel(input.name);
    if (prefix.length > 32) throw invalid(T.common.max(32), [{ path: 'prefix', message: T.common.max(32) }]);
    if (await byPrefix(appId, prefix)) throw conflict(T.tags.serverKeyTaken);
    try {
      const row = await store.insertCategory({
        appId,
        name: input.name,
        prefix,
        category: input.category,
        createdAt: now(),
      });
      return (await present([row]))[0]!;
    } catch (err) {
      // another add took the key first
      if (isUniqueViolation(err)) throw conflict(T.tags.serverKeyTaken);
      throw err;
    }
  }

  async function addDefinition(appId: number, input: { name: string; prefix: string; name_lc?: string }) {
    const category = await byPrefix(appId, input.prefix);
    if (!category) throw notFound(T.tags.serverUnknownCategory);
    if (category.category !== TagType.SELECTION) throw fail(TagCode.OPTION_NOT_ALLOWED, T.tags.optionNotAllowed);
    const nameLc = input.name_lc || keyFromLabel(input.name);
    if (await store.definition(category.id, nameLc)) throw fail(TagCode.OPTION_DUPLICATE, T.tags.optionDuplicate);
    try {
      await store.insertDefinition({ categoryId: category.id, name: input.name, nameLc, createdAt: now() });
    } catch (err) {
      if (isUniqueViolation(err)) throw fail(TagCode.OPTION_DUPLICATE, T.tags.optionDuplicate);
      throw err;
    }
    return { name: input.name, name_lc: nameLc, prefix: category.prefix };
  }

  const categoryOf = async (appId: number, id: number) => {
    const row = await store.categoryById(appId, id);
    // another application's category is as unknown as a missing one
    if (!row) throw notFound(T.tags.serverUnknownCategory);
    return row;
  };
  const optionOf = async (appId: number, prefix: string, nameLc: string) => {
    const category = await byPrefix(appId, prefix);
    if (!category) throw notFound(T.tags.serverUnknownCategory);
    const option = await store.definition(category.id, nameLc);
    if (!option) throw notFound(T.tags.serverUnknownOption);
    return { category, option };
  };

  /**
   * Rewrites every device and sensor tag map of the application that holds `prefix` (all of it, or one value of it);
   * answers how many devices changed (a device counts once, whether its own map or one of its sensors' changed).
   */
  async function dropFromTagMaps(appId: number, prefix: string, value?: string): Promise<number> {
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
    const mentions = containing(JSON.stringify(prefix));
    const changed = new Set<number>();
    for (const d of await maps.devices.tagMapsMatching(appId, mentions)) {
      const next = strip(d.tags);
      if (next === null) continue;
      await maps.devices.setTags(d.id, next);
      changed.add(d.id);
    }
    const sensors = await maps.sensors.tagMapsMatching(await maps.devices.idsOf(appId), mentions);
    for (const r of sensors) {
      const next = strip(r.tags);
      if (next === null) continue;
      await maps.sensors.setTags(r.deviceId, r.key, next, now());
      changed.add(r.deviceId);
    }
    return changed.size;
  }

  async function editCategory(appId: number, input: { id: number; name: string }) {
    const row = await categoryOf(appId, input.id);
    await store.renameCategory(row.id, input.name);
    return (await present([{ ...row, name: input.name }]))[0]!;
  }

  async function removeCategory(appId: number, input: { id: number }) {
    const row = await categoryOf(appId, input.id);
    const changed = await store.removeCategory(row.id, () => dropFromTagMaps(appId, row.prefix));
    return { devices: changed };
  }

  async function editDefinition(appId: number, input: { prefix: string; name_lc: string; name: string }) {
    const { category, option } = await optionOf(appId, input.prefix, input.name_lc);
    await store.renameDefinition(option.id, input.name);
    return { name: input.name, name_lc: option.nameLc, prefix: category.prefix };
  }

  async function removeDefinition(appId: number, input: { prefix: string; name_lc: string }) {
    const { category, option } = await optionOf(appId, input.prefix, input.name_lc);
    const changed = await store.removeDefinition(option.id, () =>
      dropFromTagMaps(appId, category.prefix, option.nameLc),
    );
    return { devices: changed };
  }

  /**
   * Checks a tag map against the application's categories and answers it normalised (empty lists dropped,
   * selection options by name_lc). An unknown category or a bad value is -10 with the path of the offending value.
   */
  async function normalise(appId: number, tags: DeviceTags, path = 'tags'): Promise<DeviceTags> {
    const prefixes = Object.keys(tags);
    if (!prefixes.length) return {};
    const rows = await store.categoriesByPrefix(appId, prefixes);
    const defs = await definitionsOf(rows);
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
