// The rules domain's persistence (rule definitions) on the storage boundary's store: SQLite or PostgreSQL, one query
// code. The engine's state per rule and device (rule_states) stays on the engine's synchronous path (state-store.ts).
import { and, desc, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { rules } from './rules.table.js';
import { containing, likeEscaped } from '../../platform/db/like.js';
import { pageOf } from '../../platform/db/page.js';

export type RuleRow = typeof rules.$inferSelect;
export type NewRule = Omit<typeof rules.$inferInsert, 'id'>;
/** what an edit may change (never the application, the key or the category) */
export type RuleChange = Partial<
  Pick<RuleRow, 'name' | 'description' | 'condition' | 'action' | 'details' | 'active'>
> & {
  updatedAt: number;
};

export function createRulesStore(store: AppStore) {
  const { db } = store;
  return {
    /** the application's rule; undefined for an unknown id or another application's rule */
    byId: (appId: number, id: number): Promise<RuleRow | undefined> =>
      db
        .select()
        .from(rules)
        .where(and(eq(rules.id, id), eq(rules.appId, appId)))
        .get(),

    /** a rule of any application (another gateway announced a change of it) */
    anyById: (id: number): Promise<RuleRow | undefined> => db.select().from(rules).where(eq(rules.id, id)).get(),

    keyTaken: async (appId: number, key: string): Promise<boolean> =>
      (await db
        .select({ id: rules.id })
        .from(rules)
        .where(and(eq(rules.appId, appId), eq(rules.key, key)))
        .get()) !== undefined,

    /** a page of the application's rules, newest first; `search` is a part of the name, as typed */
    async list(appId: number, q: { search?: string; page: number; size: number }) {
      const where = and(eq(rules.appId, appId), q.search ? likeEscaped(rules.name, containing(q.search)) : undefined);
      return pageOf(db, rules, where, [desc(rules.id)], q);
    },

    /** the new rule; undefined when its key is taken in the application (the unique index decides) */
    create: (values: NewRule): Promise<RuleRow | undefined> =>
      db.insert(rules).values(values).onConflictDoNothing().returning().get(),

    /** the rule changed as `set` says; undefined when it is gone */
    update: (id: number, set: RuleChange): Promise<RuleRow | undefined> =>
      db.update(rules).set(set).where(eq(rules.id, id)).returning().get(),

    /** removes the rule (its engine state goes with it) */
    async remove(id: number): Promise<void> {
      await db.delete(rules).where(eq(rules.id, id));
    },

    /** the application's active rules (a removed device may leave some with nothing to watch) */
    activeOf: (appId: number): Promise<RuleRow[]> =>
      db
        .select()
        .from(rules)
        .where(and(eq(rules.appId, appId), eq(rules.active, true)))
        .orderBy(rules.id),

    /** every active rule (the engine's load at start) */
    allActive: (): Promise<RuleRow[]> => db.select().from(rules).where(eq(rules.active, true)).orderBy(rules.id),
  };
}

export type RulesStore = ReturnType<typeof createRulesStore>;
