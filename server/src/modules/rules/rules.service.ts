// Rules of an application: stored in their canonical definition (docs/decisions/rules.md), validated beyond the zod
// contract against the application's devices, and kept in the engine: every write is applied to this gateway's engine
// at once and announced as `rule.<app>.<rule>` so the other gateways (scale-out) reload it.
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  groupsOf,
  RULE_CATEGORIES,
  RuleCode,
  T,
  type ActionEntry,
  type Rule,
  type RuleCondition,
} from '@sentra/contracts';
import type { Db } from '../../db.js';
import type { Bus } from '../../platform/bus/types.js';
import { fail, invalid, notFound, type FieldError } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/log.js';
import { devices } from '../devices/devices.table.js';
import type { RuleRecord } from './compile.js';
import type { RuleEngine } from './engine.js';
import { rules } from './rules.table.js';
import { newOrigin } from '../../platform/bus/subjects.js';

type RuleRow = typeof rules.$inferSelect;

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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface RulesServiceDeps {
  db: Db;
  engine: RuleEngine;
  bus: Pick<Bus, 'publish' | 'subscribe'>;
  /** a removed rule's tasks lose their rule */
  onRemoved?: (ruleId: number) => void;
  now?: () => number;
  log?: Logger;
}

export function createRulesService({ db, engine, bus, onRemoved, now = Date.now, log }: RulesServiceDeps) {
  const origin = newOrigin();

  function rowOf(appId: number, id: number): RuleRow {
    const row = db
      .select()
      .from(rules)
      .where(and(eq(rules.id, id), eq(rules.appId, appId)))
      .get();
    if (!row) throw notFound();
    return row;
  }

  /** Puts the stored rule into this gateway's engine (active) or takes it out. */
  function apply(row: RuleRow | undefined, ruleId: number) {
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
    apply(db.select().from(rules).where(eq(rules.id, ruleId)).get(), ruleId);
  });

  /** Every DEVICE_ID the definition names must be a device of this application (else -10 at its path). */
  function checkDevices(appId: number, c: RuleCondition) {
    const named: Array<{ id: number; path: string }> = [];
    const collect = (list: RuleCondition['triggers'], path: string) =>
      list?.forEach(
        (t, i) => t.field.query === 'DEVICE_ID' && named.push({ id: Number(t.value), path: `${path}.${i}.value` }),
      );
    if (c.groups) c.groups.forEach((g, gi) => collect(g, `condition.groups.${gi}`));
    else collect(c.triggers, 'condition.triggers');
    collect(c.clear, 'condition.clear');
    if (named.length === 0) return;
    const ids = [...new Set(named.map((n) => n.id))];
    const found = new Set(
      db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.appId, appId), inArray(devices.id, ids)))
        .all()
        .map((r) => r.id),
    );
    const errors: FieldError[] = named
      .filter((n) => !found.has(n.id))
      .map((n) => ({ path: n.path, message: T.rules.deviceNotInApp }));
    if (errors.length) throw invalid(errors[0]!.message, errors);
  }

  const keyTaken = (appId: number, key: string) =>
    db
      .select({ id: rules.id })
      .from(rules)
      .where(and(eq(rules.appId, appId), eq(rules.key, key)))
      .get() !== undefined;

  function list(appId: number, q: { search?: string; page: number; size: number }) {
    const where = and(
      eq(rules.appId, appId),
      q.search ? sql`${rules.name} LIKE ${`%${escapeLike(q.search)}%`} ESCAPE '\\'` : undefined,
    );
    const total = db.select({ n: count() }).from(rules).where(where).get()?.n ?? 0;
    const rows = db
      .select()
      .from(rules)
      .where(where)
      .orderBy(desc(rules.id))
      .limit(q.size)
      .offset(q.page * q.size)
      .all();
    return { rules: rows.map(toRule), total, page: q.page, size: q.size };
  }

  function add(appId: number, body: RuleBodyParsed & { key?: string }): Rule {
    checkDevices(appId, body.condition);
    const key = body.key ? body.key : null;
    if (key && keyTaken(appId, key)) throw fail(RuleCode.KEY_TAKEN, T.rules.keyTaken);
    const at = now();
    const row = db
      .insert(rules)
      .values({
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
      })
      .returning()
      .get();
    announce(row, appId, row.id);
    return toRule(row);
  }

  function edit(appId: number, body: RuleBodyParsed & { id: number }): Rule {
    const before = rowOf(appId, body.id);
    // category is read-only (spec 03 section 5): a different one is refused rather than silently kept
    if (body.category !== before.category)
      throw invalid(T.rules.categoryUnknown, [{ path: 'category', message: 'Kategori rule tidak dapat diubah' }]);
    checkDevices(appId, body.condition);
    const row = db
      .update(rules)
      .set({
        name: body.name,
        description: body.description,
        condition: JSON.stringify(body.condition),
        action: JSON.stringify(body.action),
        details: JSON.stringify(body.details),
        updatedAt: now(),
      })
      .where(eq(rules.id, before.id))
      .returning()
      .get();
    announce(row, appId, row.id);
    return toRule(row);
  }

  function activate(appId: number, id: number, active: boolean): Rule {
    rowOf(appId, id);
    const row = db.update(rules).set({ active, updatedAt: now() }).where(eq(rules.id, id)).returning().get();
    announce(row, appId, id);
    return toRule(row);
  }

  function remove(appId: number, id: number) {
    rowOf(appId, id);
    db.transaction(() => {
      onRemoved?.(id);
      db.delete(rules).where(eq(rules.id, id)).run();
    });
    announce(undefined, appId, id);
    return {};
  }

  /** A removed device: rules that watch only that device are switched off (they can never match again). */
  function deviceRemoved(appId: number, deviceId: number) {
    engine.deviceRemoved(deviceId);
    const rows = db
      .select()
      .from(rules)
      .where(and(eq(rules.appId, appId), eq(rules.active, true)))
      .all();
    for (const r of rows) {
      const groups = groupsOf(JSON.parse(r.condition) as RuleCondition);
      const onlyThat =
        groups.length > 0 &&
        groups.every((g) => g.some((t) => t.field.query === 'DEVICE_ID' && Number(t.value) === deviceId));
      if (onlyThat)
        announce(
          db.update(rules).set({ active: false, updatedAt: now() }).where(eq(rules.id, r.id)).returning().get(),
          appId,
          r.id,
        );
    }
  }

  /** Loads every active rule into the engine, then the engine's kept state (pending durations). */
  function load() {
    for (const r of db.select().from(rules).where(eq(rules.active, true)).all()) apply(r, r.id);
    engine.restore();
  }

  return {
    list,
    get: (appId: number, id: number) => toRule(rowOf(appId, id)),
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
