// Application user accounts' persistence.
import { and, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { accounts } from './users.table.js';

/**
 * The role of account `accountId` of the application: null when it has none, undefined when the application has no
 * such account (the dashboard grants ask it on a cache miss).
 */
export async function roleOfAccount(
  store: AppStore,
  appId: number,
  accountId: number,
): Promise<number | null | undefined> {
  const row = await store.db
    .select({ roleId: accounts.roleId })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.appId, appId)))
    .get();
  return row?.roleId;
}
