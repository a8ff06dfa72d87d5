// A rule definition (contracts/src/models/rule.ts) compiled into what the engine evaluates: groups of clauses, each a
// point selector (sensor/config/param, absent = any) and the value tests that apply to it. Pure: no I/O.
import {
  groupsOf,
  TELEMETRY_CATEGORIES,
  type ActionEntry,
  type RuleCondition,
  type TriggerEntry,
  type TriggerOp,
} from '@sentra/contracts';

export interface Selector {
  sensor?: string;
  config?: string;
  param?: string;
}

export interface ValueTest {
  op: TriggerOp;
  /** the value as a number when it is one (numbers, numeric text) */
  num: number | null;
  /** the value as text (`==` on non-numbers) */
  text: string;
}

export interface Clause {
  sel: Selector;
  tests: ValueTest[];
}

export interface Group {
  clauses: Clause[];
  /** DEVICE_ID entries of the group (all must equal the device): null = any device */
  deviceId: number | null;
  /** the group names two different devices: it never matches */
  never: boolean;
}

/** How the engine treats a category: `level` rules fire on the transition into matching; `pulse` rules on each event. */
export type RuleKind = 'level' | 'pulse';

export interface CompiledRule {
  id: number;
  appId: number;
  category: number;
  kind: RuleKind;
  name: string;
  key: string | null;
  description: string;
  groups: Group[];
  /** hysteresis: once fired, the rule and device stay active until this holds (null: until the groups stop holding) */
  clear: Group | null;
  durationMs: number;
  cooldownMs: number;
  action: ActionEntry;
  /** every device the rule names (index keys); empty: any device of the application */
  devices: number[];
}

export interface RuleRecord {
  id: number;
  appId: number;
  category: number;
  name: string;
  key: string | null;
  description: string;
  condition: RuleCondition;
  action: ActionEntry;
}

function valueTest(t: TriggerEntry): ValueTest {
  const v = t.value;
  const num =
    typeof v === 'number'
      ? v
      : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
        ? Number(v)
        : null;
  return { op: t.op, num, text: String(v) };
}

/** The trigger list read as clauses: selector entries, then the VALUE entries that apply to them. */
export function compileGroup(list: readonly TriggerEntry[]): Group {
  const clauses: Clause[] = [];
  let current: Clause | null = null;
  let deviceId: number | null = null;
  let never = false;
  for (const t of list) {
    const q = t.field.query;
    if (q === 'DEVICE_ID') {
      const id = Number(t.value);
      if (deviceId !== null && deviceId !== id) never = true;
      deviceId = id;
      continue;
    }
    if (q === 'VALUE') {
      if (!current) clauses.push((current = { sel: {}, tests: [] }));
      current.tests.push(valueTest(t));
      continue;
    }
    // a selector after VALUE entries starts the next clause
    if (!current || current.tests.length > 0) clauses.push((current = { sel: {}, tests: [] }));
    const key = q === 'SENSOR' ? 'sensor' : q === 'CONFIG' ? 'config' : 'param';
    current.sel[key] = String(t.value);
  }
  return { clauses, deviceId, never };
}

/** Status (21, 22) and state (31) rules with value tests are levels (e.g. "offline"); without, every event fires. */
function kindOf(category: number, groups: Group[]): RuleKind {
  if (TELEMETRY_CATEGORIES.includes(category)) return 'level';
  if (category === 21 || category === 22 || category === 31)
    return groups.some((g) => g.clauses.some((c) => c.tests.length > 0)) ? 'level' : 'pulse';
  return 'pulse';
}

export function compileRule(r: RuleRecord): CompiledRule {
  const groups = groupsOf(r.condition).map(compileGroup);
  const devices = new Set<number>();
  let anyDevice = groups.length === 0;
  for (const g of groups) {
    if (g.deviceId === null) anyDevice = true;
    else devices.add(g.deviceId);
  }
  return {
    id: r.id,
    appId: r.appId,
    category: r.category,
    kind: kindOf(r.category, groups),
    name: r.name,
    key: r.key,
    description: r.description,
    groups,
    clear: r.condition.clear ? compileGroup(r.condition.clear) : null,
    durationMs: (r.condition.duration_s ?? 0) * 1000,
    cooldownMs: (r.condition.cooldown_s ?? 0) * 1000,
    action: r.action,
    devices: anyDevice ? [] : [...devices],
  };
}

/** One value against one test (the trigger operators of spec 03 section 9). */
export function testValue(t: ValueTest, value: unknown): boolean {
  if (t.op === '==') {
    if (t.num !== null) {
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'boolean'
            ? value
              ? 1
              : 0
            : typeof value === 'string' && value.trim() !== ''
              ? Number(value)
              : NaN;
      if (n === t.num) return true;
    }
    return value !== null && value !== undefined && String(value) === t.text;
  }
  if (typeof value !== 'number' || t.num === null) return false;
  switch (t.op) {
    case '>':
      return value > t.num;
    case '>=':
      return value >= t.num;
    case '<=':
      return value <= t.num;
    case '<':
      return value < t.num;
  }
}

/**
 * Whether a selector takes a point. PARAM names a param (any of its subparams) or one subparam as `param.subparam`
 * (the spec's trigger has no subparam field; docs/decisions/rules.md "Subparams").
 */
export const selects = (sel: Selector, sensor: string, config: string, param: string, subparam = '') =>
  (sel.sensor === undefined || sel.sensor === sensor) &&
  (sel.config === undefined || sel.config === config) &&
  (sel.param === undefined || sel.param === param || (subparam !== '' && sel.param === `${param}.${subparam}`));

/** A point as the engine sees it. */
export interface EnginePoint {
  sensor: string;
  config: string;
  param: string;
  /** '' when the param has none */
  subparam?: string;
  value: unknown;
  ts: number;
}

/**
 * A group against one message: `null` when a clause's point is not in the message (unknown: the group keeps its last
 * truth); otherwise whether every clause has a selected point passing all its tests. A group without clauses (event
 * rules filtered by device only) holds for every event of its device. `counter.checks` counts the value tests run.
 */
export function evalGroup(
  g: Group,
  deviceId: number,
  points: readonly EnginePoint[],
  counter: { checks: number },
): { truth: boolean; point: EnginePoint | null } | null {
  if (g.never || (g.deviceId !== null && g.deviceId !== deviceId)) return null;
  if (g.clauses.length === 0) return { truth: true, point: points[0] ?? null };
  let all = true;
  let first: EnginePoint | null = null;
  for (const c of g.clauses) {
    let found = false;
    let passed = false;
    for (const p of points) {
      if (!selects(c.sel, p.sensor, p.config, p.param, p.subparam)) continue;
      found = true;
      let ok = true;
      for (const t of c.tests) {
        counter.checks++;
        if (!testValue(t, p.value)) {
          ok = false;
          break;
        }
      }
      first ??= p;
      if (ok) {
        passed = true;
        break;
      }
    }
    if (!found) return null;
    if (!passed) all = false;
  }
  return { truth: all, point: first };
}
