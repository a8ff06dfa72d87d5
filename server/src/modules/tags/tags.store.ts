// The tags domain's persistence (tag categories and their options) on the storage boundary's store: SQLite or
// PostgreSQL, one query code. Only this file and tags.table.ts touch these tables.
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { tagCategories, tagDefinitions } from './tags.table.js';
import { containing, likeEscaped } from '../../platform/db/like.js';
import { pageOf } from '../../platform/db/page.js';

export type TagCategoryRow = typeof tagCategories.$inferSelect;
export type TagDefinitionRow = typeof tagDefinitions.$inferSelect;

export function createTagsStore(store: AppStore) {
  const { db } = store;

  const categoryByPrefix = (appId: number, prefix: string) =>
    db
      .select()
      .from(tagCategories)
      .where(and(eq(tagCategories.appId, appId), eq(tagCategories.prefix, prefix)))
      .get();

  /** the application's category, undefined for an unknown id or another application's category */
  const categoryById = (appId: number, id: number) =>
    db
      .select()
      .from(tagCategories)
      .where(and(eq(tagCategories.appId, appId), eq(tagCategories.id, id)))
      .get();

  /** every category of the application, by id */
  const categories = (appId: number): Promise<TagCategoryRow[]> =>
    db.select().from(tagCategories).where(eq(tagCategories.appId, appId)).orderBy(asc(tagCategories.id));

  /** the application's categories of these prefixes */
  const categoriesByPrefix = (appId: number, prefixes: string[]): Promise<TagCategoryRow[]> =>
    prefixes.length
      ? db
          .select()
          .from(tagCategories)
          .where(and(eq(tagCategories.appId, appId), inArray(tagCategories.prefix, prefixes)))
          .orderBy(asc(tagCategories.id))
      : Promise.resolve([]);

  /** a page of the application's categories by id, those whose name or key holds `search` (literally, any case) */
  async function page(appId: number, q: { search?: string; page: number; size: number }) {
    const pattern = q.search ? containing(q.search) : undefined;
    const where = and(
      eq(tagCategories.appId, appId),
      pattern ? or(likeEscaped(tagCategories.name, pattern), likeEscaped(tagCategories.prefix, pattern)) : undefined,
    );
    return pageOf(db, tagCategories, where, [asc(tagCategories.id)], q);
  }

  /** the options of these categories, by id */
  const definitionsOf = (categoryIds: number[]): Promise<TagDefinitionRow[]> =>
    categoryIds.length
      ? db
          .select()
          .from(tagDefinitions)
          .where(inArray(tagDefinitions.categoryId, categoryIds))
          .orderBy(asc(tagDefinitions.id))
      : Promise.resolve([]);

  const definition = (categoryId: number, nameLc: string) =>
    db
      .select()
      .from(tagDefinitions)
      .where(and(eq(tagDefinitions.categoryId, categoryId), eq(tagDefinitions.nameLc, nameLc)))
      .get();

  /** a new category; a key the application has already is refused by its unique index (thrown as is) */
  async function insertCategory(values: Omit<typeof tagCategories.$inferInsert, 'id'>): Promise<TagCategoryRow> {
    const [row] = await db.insert(tagCategories).values(values).returning();
    return row!;
  }

  /** a new option; a name_lc the category has already is refused by its unique index (thrown as is) */
  async function insertDefinition(values: Omit<typeof tagDefinitions.$inferInsert, 'id'>): Promise<void> {
    await db.insert(tagDefinitions).values(values);
  }

  async function renameCategory(id: number, name: string): Promise<void> {
    await db.update(tagCategories).set({ name }).where(eq(tagCategories.id, id));
  }

  async function renameDefinition(id: number, name: string): Promise<void> {
    await db.update(tagDefinitions).set({ name }).where(eq(tagDefinitions.id, id));
  }

  /** `before` (the tag maps that name it rewritten), then the category and its options, in one transaction */
  const removeCategory = <T>(id: number, before: () => Promise<T>): Promise<T> =>
    store.tx(async () => {
      const result = await before();
      await db.delete(tagCategories).where(eq(tagCategories.id, id)); // its options go with it (cascade)
      return result;
    });

  /** `before` (the tag maps that hold it rewritten), then the option, in one transaction */
  const removeDefinition = <T>(id: number, before: () => Promise<T>): Promise<T> =>
    store.tx(async () => {
      const result = await before();
      await db.delete(tagDefinitions).where(eq(tagDefinitions.id, id));
      return result;
    });

  return {
    categoryByPrefix,
    categoryById,
    categories,
    categoriesByPrefix,
    page,
    definitionsOf,
    definition,
    insertCategory,
    insertDefinition,
    renameCategory,
    renameDefinition,
    removeCategory,
    removeDefinition,
  };
}

export type TagsStore = ReturnType<typeof createTagsStore>;

/** Every selection option of the application's tag categories: the category's prefix and the option, lower case. */
export function tagOptions(store: AppStore, appId: number): Promise<{ prefix: string; value: string }[]> {
  return store.db
    .select({ prefix: tagCategories.prefix, value: tagDefinitions.nameLc })
    .from(tagDefinitions)
    .innerJoin(tagCategories, eq(tagDefinitions.categoryId, tagCategories.id))
    .where(eq(tagCategories.appId, appId))
    .orderBy(asc(tagCategories.id), asc(tagDefinitions.id));
}
