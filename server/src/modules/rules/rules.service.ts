// Rules of an application: stored in their canonical definition (docs/decisions/rules.md), validated beyond the zod
// contract against the application's devices, and kept in the engine: every write is applied to this gateway's engine
// at once and announced as `rule.<app>.<rule>` so the other gateways (scale-out) reload it. A gateway whose NATS
// connection went and came back may have missed announcements: it reads every active rule again and applies those
// changed since it last applied them (by `updated_at`; an unchanged rule keeps its pending durations), and takes out
// those no longer active.
import {
  groupsOf,
  RULE_CATEGORIES,
  RuleCode,
  T,
  type ActionEntry,
  type Rule,
  type RuleCondition,
} from '@sentra/contracts';
import type { Bus } from '../../platform/bus/types.js';
import { fail, invalid, notFound, type FieldError } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/log.js';
import type { RuleRecord } from './compile.js';
import type { RuleEngine } from './engine.js';
import type { RuleRow, RulesStore } from './rules.store.js';
import { newOrigin } from '../../platform/bus/subjects.js';

export const ruleSubject = (appId: number, ruleId: number) => `rule.${appId}.${ruleId}`;

export interface RuleBodyParsed {
  name: string;
  category: number;
  description: string;
  condition: RuleCondition;
  action: ActionEntry;
  details: Record<string, unknown>;
}

export function toRule(r: RuleRow): Rule {
  return {
    id: r.id,
    name: r.name,
    key: r.key,
    category: r.category,
    category_text: RULE_CATEGORIES[r.category as keyof typeof RULE_CATEGORIES] ?? String(r.category),
    description: r.description,
    condition: JSON.parse(r.condition) as RuleCondition,
    action: JSON.parse(r.action) as ActionEntry,
    details: JSON.parse(r.details) as Record<string, unknown>,
    active: r.active,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

export const recordOf = (r: RuleRow): RuleRecord => ({
  id: r.id,
  appId: r.appId,
  category: r.category,
  name: r.name,
  key: r.key,
  description: r.description,
  condition: JSON.parse(r.condition) as RuleCondition,
  action: JSON.parse(r.action) as ActionEntry,
});

export interface RulesServiceDeps {
  store: RulesStore;
  /** runs `fn` in one transaction of the asynchronous store */
  tx: <T>(fn: () => Promise<T>) => Promise<T>;
  /** the ids of the application's devices (devices domain) */
  deviceIdsOf: (appId: number) => Promise<number[]>;
  engine: RuleEngine;
  bus: Pick<Bus, 'publish' | 'subscribe' | 'onConnection'>;
  /** a removed rule's tasks lose their rule (inside the removal's transaction) */
  onRemoved?: (ruleId: number) => Promise<void>;
  now?: () => number;
  log?: Logger;
}

export function createRulesService({
  store,
  tx,
  deviceIdsOf,
  engine,
  bus,
  onRemoved,
  now = Date.now,
  log,
}: RulesServiceDeps) {
  const origin = newOrigin();

  async function rowOf(appId: number, id: number): Promise<RuleRow> {
    const row = await store.byId(appId, id);
    if (!row) throw notFound();
    return row;
  }

  /** the active rules in this gateway's engine: the `updated_at` of the row each was applied from */
  const applied = new Map<number, number>();

  /** Puts the stored rule into this gateway's engine (active) or takes it out. */
  function apply(row: RuleRow | undefined, ruleId: number) {
    if (row?.active) applied.set(ruleId, row.updatedAt);
    else applied.delete(ruleId);
    try {
      if (row?.active) engine.upsert(recordOf(row));
      else engine.remove(ruleId);
    } catch (err) {
      log?.error(`rule ${ruleId} not loaded into the engine`, err);
    }
  }

  function announce(row: RuleRow | undefined, appId: number, ruleId: number) {
    apply(row, ruleId);
    try {
      bus.publish(ruleSubject(appId, ruleId), { origin });
    } catch (err) {
      log?.error('rule change not announced', err);
    }
  }

  // other gateways' writes: reload the rule from the shared database
  const sub = bus.subscribe<{ origin: string }>('rule.>', ({ subject, data }) => {
    if (data?.origin === origin) return;
    const ruleId = Number(subject.split('.')[2]);
    if (!Number.isSafeInteger(ruleId)) return;
    store.anyById(ruleId).then(
      (row) => apply(row, ruleId),
      (err) => log?.error(`rule ${ruleId} not reloaded`, err),
    );
  });

  /** Every DEVICE_ID the definition names must be a device of this application (else -10 at its path). */
  async function checkDevices(appId: number, c: RuleCondition) {
    const named: Array<{ id: number; path: string }> = [];
    const collect = (list: RuleCondition['triggers'], path: string) =>
      list?.forEach(
        (t, i) => t.field.query === 'DEVICE_ID' && named.push({ id: Number(t.value), path: `${path}.${i}.value` }),
      );
    if (c.groups) c.groups.forEach((g, gi) => collect(g, `condition.groups.${gi}`));
    else collect(c.triggers, 'condition.triggers');
    collect(c.clear, 'condition.clear');
    if (named.length === 0) return;
    const found = new Set(await deviceIdsOf(appId));
    const errors: FieldError[] = named
      .filter((n) => !found.has(n.id))
      .map((n) => ({ path: n.path, message: T.rules.deviceNotInApp }));
    if (errors.length) throw invalid(errors[0]!.message, errors);
  }

  async function list(appId: number, q: { search?: string; page: number; size: number }) {
    const { rows, total } = await store.list(appId, q);
    return { rules: rows.map(toRule), total, page: q.page, size: q.size };
  }

  async function add(appId: number, body: RuleBodyParsed & { key?: string }): Promise<Rule> {
    await checkDevices(appId, body.condition);
    const key = body.key ? body.key : null;
    if (key && (await store.keyTaken(appId, key))) throw fail(RuleCode.KEY_TAKEN, T.rules.keyTaken);
    const at = now();
    const row = await store.create({
      appId,
      name: body.name,
      key,
      category: body.category,
      description: body.description,
      condition: JSON.stringify(body.condition),
      action: JSON.stringify(body.action),
      details: JSON.stringify(body.details),
      active: true,
      createdAt: at,
      updatedAt: at,
    });
    // taken meanwhile (another call with the same key): the unique index refused it
    if (!row) throw fail(RuleCode.KEY_TAKEN, T.rules.keyTaken);
    announce(row, appId, row.id);
    return toRule(row);
  }

  async function edit(appId: number, body: RuleBodyParsed & { id: number }): Promise<Rule> {
    const before = await rowOf(appId, body.id);
    // category is read-only (spec 03 section 5): a different one is refused rather than silently kept
    if (body.category !== before.category)
      throw invalid(T.rules.categoryUnknown, [{ path: 'category', message: 'Kategori rule tidak dapat diubah' }]);
    await checkDevices(appId, body.condition);
    const row = await store.update(before.id, {
      name: body.name,
      description: body.description,
      condition: JSON.stringify(body.condition),
      action: JSON.stringify(body.action),
      details: JSON.stringify(body.details),
      updatedAt: now(),
    });
    if (!row) throw notFound();
    announce(row, appId, row.id);
    return toRule(row);
  }

  async function activate(appId: number, id: number, active: boolean): Promise<Rule> {
    await rowOf(appId, id);
    const row = await store.update(id, { active, updatedAt: now() });
    if (!row) throw notFound();
    announce(row, appId, id);
    return toRule(row);
  }

  async function remove(appId: number, id: number) {
    await rowOf(appId, id);
    await tx(async () => {
      await onRemoved?.(id);
      await store.remove(id);
    });
    announce(undefined, appId, id);
    return {};
  }

  /** A removed device: rules that watch only that device are switched off (they can never match again). */
  async function deviceRemoved(appId: number, deviceId: number) {
    engine.deviceRemoved(deviceId);
    for (const r of await store.activeOf(appId)) {
      const groups = groupsOf(JSON.parse(r.condition) as RuleCondition);
      const onlyThat =
        groups.length > 0 &&
        groups.every((g) => g.some((t) => t.field.query === 'DEVICE_ID' && Number(t.value) === deviceId));
      if (onlyThat) announce(await store.update(r.id, { active: false, updatedAt: now() }), appId, r.id);
    }
  }

  /** The engine made to agree with the stored rules after announcements may have been missed (the bus reconnected). */
  async function resync() {
    const rows = await store.allActive();
    const active = new Set<number>();
    for (const r of rows) {
      active.add(r.id);
      if (applied.get(r.id) !== r.updatedAt) apply(r, r.id);
    }
    for (const id of [...applied.keys()]) if (!active.has(id)) apply(undefined, id);
  }
  bus.onConnection?.((up) => {
    if (up) resync().catch((err) => log?.error('rules not read again after the bus reconnected', err));
  });

  /** Loads every active rule into the engine, then the engine's kept state (pending durations). */
  async function load() {
    for (const r of await store.allActive()) apply(r, r.id);
    await engine.restore();
  }

  return {
    list,
    get: async (appId: number, id: number) => toRule(await rowOf(appId, id)),
    add,
    edit,
    activate,
    remove,
    deviceRemoved,
    load,
    close: () => sub.unsubscribe(),
  };
}

export type RulesService = ReturnType<typeof createRulesService>;
