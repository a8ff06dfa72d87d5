// API credentials of an application: the secret is kept encrypted (the console shows it) beside its SHA-256,
// which the per-request check compares against.
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { applications } from '../apps/apps.table.js';

export const credentials = sqliteTable(
  'credentials',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** 21 API_KEY, 14 OPEN_V4, 19 OPEN_V0, 31 OIDC */
    category: integer('category').notNull(),
    credentialsId: text('credentials_id').notNull(),
    /** AES-256-GCM sealed secret (secret-box.ts) */
    secretSealed: text('secret_sealed').notNull(),
    /** SHA-256 hex of the secret */
    secretHash: text('secret_hash').notNull(),
    scopes: text('scopes').notNull().default('{}'),
    details: text('details').notNull().default('{}'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  // the authenticator's lookup: one unique-index probe per API-key call
  (t) => [uniqueIndex('credentials_app_credentials_id').on(t.appId, t.credentialsId)],
);
