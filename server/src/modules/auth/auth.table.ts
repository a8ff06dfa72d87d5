// Tenants (the administrators who own applications) and the sessions of every principal.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const tenants = sqliteTable('tenants', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  username: text('username').notNull().unique(),
  first: text('first').notNull(),
  last: text('last'),
  email: text('email').notNull().unique(),
  passHash: text('pass_hash').notNull(),
  tenantName: text('tenant_name').notNull(),
  /** epoch ms; past it every call of the tenant and its users answers 402 */
  billingExpiresAt: integer('billing_expires_at').notNull(),
  createdAt: integer('created_at').notNull(),
});

/**
 * kind: 'tenant' (principal = tenant id) or 'member' (principal = application account id). A session ends when unused
 * for SESSION_IDLE_TIMEOUT_S (last_seen_at) or SESSION_MAX_AGE_S after created_at; refresh_family names the refresh
 * token chain it was opened from, so a replayed rotated token ends it with its chain.
 */
export const sessions = sqliteTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['tenant', 'member'] }).notNull(),
    principalId: integer('principal_id').notNull(),
    createdAt: integer('created_at').notNull(),
    /** epoch ms of the last call seen (written at most once a minute); 0 = before sessions had an idle time-out */
    lastSeenAt: integer('last_seen_at').notNull().default(0),
    refreshFamily: text('refresh_family'),
  },
  (t) => [index('sessions_principal').on(t.kind, t.principalId)],
);
