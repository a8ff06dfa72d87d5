// One page of a table's rows and the count of all that match: the list calls' shape (page from 0, size), written once
// for every domain's store on the store's drizzle database (either engine).
import { count, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';

export interface PageQuery {
  /** from 0 */
  page: number;
  size: number;
}

/** the rows of `table` matching `where` in `order`, page `q.page` of `q.size`, and how many match in all */
export async function pageOf<T extends SQLiteTable>(
  db: SqliteRemoteDatabase<Record<string, unknown>>,
  table: T,
  where: SQL | undefined,
  order: ReadonlyArray<SQL | SQLiteColumn>,
  q: PageQuery,
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const total = (await db.select({ n: count() }).from(table).where(where).get())?.n ?? 0;
  const rows = await db
    .select()
    .from(table as SQLiteTable)
    .where(where)
    .orderBy(...order)
    .limit(q.size)
    .offset(q.page * q.size);
  return { rows: rows as T['$inferSelect'][], total };
}
