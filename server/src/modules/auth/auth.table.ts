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

/** kind: 'tenant' (principal = tenant id) or 'member' (principal = application account id). */
export const sessions = sqliteTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['tenant', 'member'] }).notNull(),
    principalId: integer('principal_id').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('sessions_principal').on(t.kind, t.principalId)],
);
