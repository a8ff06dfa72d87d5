// What the card editor chooses from (spec 02 section 3 "Data shape for selection"): the application's devices as
// device → sensor → config → param → subparam, built from each device's declared sensors and the series telemetry
// has actually stored, their labels, and the tags a query may filter by. A device's states (Tasmota's POWER) appear
// under the sensor STATE_SENSOR / config STATE_CONFIG, one param per state key (docs/card-queries.md "Device states").
import { STATE_CONFIG, STATE_SENSOR, type DeviceTree, type SensorTree } from '@sentra/contracts';
import type { SelectionDevice } from '../devices/devices.store.js';
import type { SeriesEntry } from '../telemetry/read/series-catalogue.js';
import { isDatatype } from '../telemetry/datatypes.js';

/** Config types a device accepts writes on: what `config=true` keeps (command cards). */
export const WRITABLE_CONFIG_TYPES: readonly string[] = ['config', 'command'];

/** what the selection is built from, each asked of the domain that owns it (app.ts wires them) */
export interface SelectionReads {
  /** the application's devices by id (devices) */
  devices(appId: number): Promise<SelectionDevice[]>;
  /** the series telemetry stored for them */
  series(appId: number): Promise<SeriesEntry[]>;
  /** the state keys they hold (states) */
  stateKeys(appId: number): Promise<{ deviceId: number; key: string }[]>;
  /** the selection options of the tag categories (tags) */
  tagOptions(appId: number): Promise<{ prefix: string; value: string }[]>;
}

export interface SelectionFilter {
  config?: boolean;
  /** `prefix:value`, or a bare value of any category */
  tags?: string[];
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * A tree node without a prototype: names come from devices (declared sensors, series, state keys), and a name such as
 * `__proto__` must be a key like any other, never a way into Object.prototype (read from `{}` it is one).
 */
const node = (): Obj => Object.create(null) as Obj;
const child = (parent: Obj, key: string): Obj => {
  const existing = parent[key];
  if (isObject(existing)) return existing;
  const created = node();
  parent[key] = created;
  return created;
};

/** Adds one series to a sensor tree: a param is a leaf (its datatype) or an object of subparams. */
function put(tree: Obj, sensor: string, config: string, param: string, subparam: string, leaf: unknown): void {
  const params = child(child(tree, sensor), config);
  if (!subparam) {
    if (!isObject(params[param])) params[param] = leaf;
    return;
  }
  const subs = child(params, param);
  if (!(subparam in subs)) subs[subparam] = leaf;
}

/** A declared leaf: its datatype when it names one, else null (the editor needs the keys, not sample values). */
const declaredLeaf = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * A param's declared subparams: those of the datatype form `{ datatype, subparams | subparam_datatypes }` (its keys
 * `datatype` and `subparams` are words of the form, never subparams), else the keys of a sample object.
 */
function declaredSubparams(value: unknown): Obj | undefined {
  if (!isObject(value)) return undefined;
  if (isDatatype(value.datatype) || isObject(value.subparams) || isObject(value.subparam_datatypes)) {
    const subs = isObject(value.subparams) ? value.subparams : value.subparam_datatypes;
    return isObject(subs) && Object.keys(subs).length > 0 ? subs : undefined;
  }
  return Object.keys(value).length > 0 ? value : undefined;
}
/** the datatype a param's declaration names (a leaf): its string, or the datatype form's `datatype` */
const declaredParamLeaf = (v: unknown) => (isObject(v) ? declaredLeaf(v.datatype) : declaredLeaf(v));

/** The declared sensors: `{ sensor: { config: { param: leaf | { subparam: leaf } } } }` or `[{ sensor, configtype, param, subparam? }]`. */
function addDeclared(tree: Obj, sensors: unknown): void {
  if (Array.isArray(sensors)) {
    for (const s of sensors) {
      if (!isObject(s) || typeof s.sensor !== 'string' || typeof s.param !== 'string') continue;
      const config = typeof s.configtype === 'string' ? s.configtype : 'data';
      const subs = isObject(s.subparam_datatypes) ? s.subparam_datatypes : undefined;
      if (subs && Object.keys(subs).length > 0)
        for (const [subparam, leaf] of Object.entries(subs))
          put(tree, s.sensor, config, s.param, subparam, declaredLeaf(leaf));
      else
        put(
          tree,
          s.sensor,
          config,
          s.param,
          typeof s.subparam === 'string' ? s.subparam : '',
          declaredLeaf(s.datatype),
        );
    }
    return;
  }
  if (!isObject(sensors)) return;
  for (const [sensor, configs] of Object.entries(sensors)) {
    if (!isObject(configs)) continue;
    for (const [config, params] of Object.entries(configs)) {
      if (!isObject(params)) continue;
      for (const [param, value] of Object.entries(params)) {
        const subs = declaredSubparams(value);
        if (subs)
          for (const [subparam, leaf] of Object.entries(subs))
            put(tree, sensor, config, param, subparam, declaredLeaf(leaf));
        else put(tree, sensor, config, param, '', declaredParamLeaf(value));
      }
    }
  }
}

/** A command target must be writable; a device state is (Tasmota's POWER, Dimmer ... are states and commands both). */
function keepConfigTypes(tree: Obj, allowed: readonly string[]): void {
  for (const [sensor, configs] of Object.entries(tree)) {
    if (sensor === STATE_SENSOR) continue;
    const kept = Object.fromEntries(Object.entries(configs as Obj).filter(([c]) => allowed.includes(c)));
    if (Object.keys(kept).length) tree[sensor] = kept;
    else delete tree[sensor];
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Does a device's tag map carry one of `wanted` (`prefix:value`, or a bare value in any category)? */
function hasAnyTag(tagsText: string, wanted: readonly string[]): boolean {
  const tags = parseJson(tagsText);
  if (!isObject(tags)) return false;
  for (const [prefix, values] of Object.entries(tags)) {
    if (!Array.isArray(values)) continue;
    for (const value of values)
      if (wanted.includes(`${prefix}:${String(value)}`) || wanted.includes(String(value))) return true;
  }
  return false;
}

function deepMerge(into: Obj, from: Obj): void {
  for (const [k, v] of Object.entries(from)) {
    if (isObject(v)) deepMerge(child(into, k), v);
    else if (!isObject(into[k])) into[k] = v;
  }
}

export function createSelection(reads: SelectionReads) {
  async function deviceTrees(appId: number, filter: SelectionFilter) {
    const [all, series, states] = await Promise.all([
      reads.devices(appId),
      reads.series(appId),
      reads.stateKeys(appId),
    ]);
    const rows = all.filter((d) => !filter.tags?.length || hasAnyTag(d.tags, filter.tags));
    const trees = new Map<number, Obj>(rows.map((d) => [d.id, node()]));
    for (const d of rows) addDeclared(trees.get(d.id)!, parseJson(d.sensors));
    for (const s of series) {
      const tree = trees.get(s.deviceId);
      if (tree) put(tree, s.sensor, s.configtype, s.param, s.subparam, s.datatype);
    }
    for (const st of states) {
      const tree = trees.get(st.deviceId);
      if (tree) put(tree, STATE_SENSOR, STATE_CONFIG, st.key, '', null);
    }
    if (filter.config) for (const tree of trees.values()) keepConfigTypes(tree, WRITABLE_CONFIG_TYPES);
    return { rows, trees };
  }

  return {
    async devices(
      appId: number,
      filter: SelectionFilter,
    ): Promise<{ devices: DeviceTree; devices_label: Record<string, string>; devices_serial: Record<string, string> }> {
      const { rows, trees } = await deviceTrees(appId, filter);
      return {
        devices: Object.fromEntries(rows.map((d) => [String(d.id), trees.get(d.id) as SensorTree])),
        devices_label: Object.fromEntries(rows.map((d) => [String(d.id), d.label || d.name])),
        devices_serial: Object.fromEntries(rows.map((d) => [String(d.id), d.serial])),
      };
    },

    /** The same devices' sensors merged, without the device level (list and map card queries). */
    async sensors(appId: number, filter: SelectionFilter): Promise<{ sensors: SensorTree }> {
      const merged = node();
      for (const tree of (await deviceTrees(appId, filter)).trees.values()) deepMerge(merged, tree);
      return { sensors: merged as SensorTree };
    },

    /** Every selection option and every value devices carry, as `prefix:value`, sorted. */
    async tags(appId: number): Promise<{ tags: string[] }> {
      const out = new Set<string>();
      const [options, devices] = await Promise.all([reads.tagOptions(appId), reads.devices(appId)]);
      for (const o of options) out.add(`${o.prefix}:${o.value}`);
      for (const d of devices) {
        const tags = parseJson(d.tags);
        if (!isObject(tags)) continue;
        for (const [prefix, values] of Object.entries(tags))
          if (Array.isArray(values)) for (const v of values) out.add(`${prefix}:${String(v)}`);
      }
      return { tags: [...out].sort() };
    },
  };
}

export type Selection = ReturnType<typeof createSelection>;
