// Application user accounts: they sign in through their application's domain and act as their role grants.
// Also the refresh tokens of every principal, one per (principal, application).
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { applications } from '../apps/apps.table.js';
import { roles } from '../roles/roles.table.js';

export const accounts = sqliteTable(
  'accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    email: text('email').notNull(),
    first: text('first').notNull(),
    last: text('last'),
    passHash: text('pass_hash').notNull(),
    /** the one role of the user; null = no rights. Removing a held role is refused (-21). */
    roleId: integer('role_id').references(() => roles.id, { onDelete: 'set null' }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('accounts_app_username').on(t.appId, t.username),
    uniqueIndex('accounts_app_email').on(t.appId, t.email),
    index('accounts_role').on(t.roleId),
  ],
);

/**
 * A principal's refresh token for one application: exchanged for a session. Sealed so the Refresh Token page can
 * show it, hashed so the exchange finds it; a new one replaces the row, so the previous token stops at once. An
 * exchange rotates it inside its family (the chain since the last regenerate); the tokens it replaced are kept in
 * retired_refresh_tokens so presenting one again revokes the family.
 */
export const refreshTokens = sqliteTable(
  'refresh_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: ['tenant', 'member'] }).notNull(),
    principalId: integer('principal_id').notNull(),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    tokenSealed: text('token_sealed').notNull(),
    /** the chain this token belongs to: set on regenerate (or first read), kept by every rotation */
    family: text('family').notNull().default(''),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('refresh_tokens_owner').on(t.kind, t.principalId, t.appId)],
);

/** Refresh tokens an exchange has rotated away (hash only): presenting one again is a replay and revokes its family. */
export const retiredRefreshTokens = sqliteTable(
  'retired_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['tenant', 'member'] }).notNull(),
    principalId: integer('principal_id').notNull(),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    family: text('family').notNull(),
    retiredAt: integer('retired_at').notNull(),
  },
  (t) => [index('retired_refresh_tokens_owner').on(t.kind, t.principalId, t.appId)],
);
