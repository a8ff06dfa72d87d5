// Rules of an application (spec 03 section 3) and the rule engine's state per rule and device, kept so a pending
// duration, the last firing (cooldown) and the "currently matching" flag survive a restart and are shared by the
// gateways of a scale-out (docs/decisions/rules.md "Engine").
import { integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { applications } from '../apps/apps.table.js';

export const rules = sqliteTable(
  'rules',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** optional, unique per application; read-only after add */
    key: text('key'),
    /** one of the twelve rule categories; read-only after add */
    category: integer('category').notNull(),
    description: text('description').notNull().default(''),
    /** JSON: the canonical RuleCondition */
    condition: text('condition').notNull(),
    /** JSON: the ActionEntry */
    action: text('action').notNull(),
    /** JSON object, kept as given */
    details: text('details').notNull().default('{}'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('rules_app_key')
      .on(t.appId, t.key)
      .where(sql`${t.key} IS NOT NULL`),
  ],
);

/**
 * Engine state of one rule and one device (device 0: events without a device). `phase`: 'pending' (matching, waiting
 * for `due`), 'active' (fired, or suppressed by cooldown, until the clear condition). A row in no phase ('idle') is
 * kept only for `last_fire_ts` (cooldown).
 */
export const ruleStates = sqliteTable(
  'rule_states',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => rules.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').notNull(),
    phase: text('phase').notNull(),
    since: integer('since').notNull(),
    due: integer('due'),
    /** the value that started the pending phase (text), for the task it creates */
    value: text('value'),
    lastFireTs: integer('last_fire_ts'),
    /**
     * the device's time of the newest point the rule evaluated for the device (gateways storing locally: a point resent
     * by its device at or before it is not evaluated again), else null
     */
    lastTs: integer('last_ts'),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.deviceId] })],
);
