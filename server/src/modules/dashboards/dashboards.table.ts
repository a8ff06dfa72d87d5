// Dashboards: an application's pages, and at the same time its navigation items (a role grants them as menu entries).
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { applications } from '../apps/apps.table.js';

export const dashboards = sqliteTable(
  'dashboards',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    /** "Deskripsi Dasboard" */
    description: text('description').notNull().default(''),
    /** unique per application; the route segment of the dashboard */
    path: text('path').notNull(),
    /** the parent navigation item; null for a root. Removing a parent moves its children up (dashboards.service) */
    parentId: integer('parent_id'),
    sort: integer('sort').notNull().default(0),
    /** layout and cards, JSON text */
    confDashboard: text('conf_dashboard').notNull().default('{}'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at'),
  },
  (t) => [
    uniqueIndex('dashboards_app_path').on(t.appId, t.path),
    index('dashboards_app_parent').on(t.appId, t.parentId),
  ],
);
