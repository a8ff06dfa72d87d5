// Application user accounts: they sign in through their application's domain and act as their role grants.
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { applications } from '../apps/apps.table.js';

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
    /** the one role of the user; null = no rights (roles arrive with the access issue) */
    roleId: integer('role_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('accounts_app_username').on(t.appId, t.username), uniqueIndex('accounts_app_email').on(t.appId, t.email)],
);
