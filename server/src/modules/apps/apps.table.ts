// Applications: a tenant's isolated spaces, addressed by their domain.
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { tenants } from '../auth/auth.table.js';

export const applications = sqliteTable('applications', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  domain: text('domain').notNull().unique(),
  description: text('description'),
  timezone: text('timezone').notNull().default('Asia/Jakarta'),
  createdAt: integer('created_at').notNull(),
});
