// The accounts table on the storage boundary's store.
import { and, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { accounts } from './users.table.js';

export type AccountRow = typeof accounts.$inferSelect;

export function createUsersStore(store: AppStore) {
  const db = store.db;
  return {
    byId: (appId: number, id: number): Promise<AccountRow | undefined> =>
      db
        .select()
        .from(accounts)
        .where(and(eq(accounts.appId, appId), eq(accounts.id, id)))
        .get(),
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
