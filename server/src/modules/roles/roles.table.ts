// Roles of an application: system navigation keys, a permissions object, and the dashboards they grant in order.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { applications } from '../apps/apps.table.js';
import { dashboards } from '../dashboards/dashboards.table.js';

export const roles = sqliteTable(
  'roles',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** JSON object text, e.g. {"task_manage": true} */
    permissions: text('permissions').notNull().default('{}'),
    /** JSON array text of system navigation keys */
    sysNavs: text('sys_navs').notNull().default('[]'),
    /** grant each dashboard with all its children */
    descendant: integer('descendant', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('roles_app_name').on(t.appId, t.name)],
);

/** The dashboards a role grants, with their sort order in the menu. */
export const roleNavs = sqliteTable(
  'role_navs',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    dashboardId: integer('dashboard_id')
      .notNull()
      .references(() => dashboards.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.dashboardId] }), index('role_navs_dashboard').on(t.dashboardId)],
);
