// Tag categories of an application and the options (definitions) of single-selection categories.
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { applications } from '../apps/apps.table.js';

export const tagCategories = sqliteTable(
  'tag_categories',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** the key: devices' tags map is keyed by it */
    prefix: text('prefix').notNull(),
    /** 1 single selection, 2 single value, 3 single checkbox, 4 multi */
    category: integer('category').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('tag_categories_app_prefix').on(t.appId, t.prefix)],
);

export const tagDefinitions = sqliteTable(
  'tag_definitions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => tagCategories.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    nameLc: text('name_lc').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('tag_definitions_category_name_lc').on(t.categoryId, t.nameLc)],
);
