// Tags' persistence.
import { asc, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { tagCategories, tagDefinitions } from './tags.table.js';

/** Every selection option of the application's tag categories: the category's prefix and the option, lower case. */
export function tagOptions(store: AppStore, appId: number): Promise<{ prefix: string; value: string }[]> {
  return store.db
    .select({ prefix: tagCategories.prefix, value: tagDefinitions.nameLc })
    .from(tagDefinitions)
    .innerJoin(tagCategories, eq(tagDefinitions.categoryId, tagCategories.id))
    .where(eq(tagCategories.appId, appId))
    .orderBy(asc(tagCategories.id), asc(tagDefinitions.id));
}
