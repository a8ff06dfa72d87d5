// The LoRa domain's persistence (an application's network server entries) on the storage boundary's store: SQLite or
// PostgreSQL, one query code. Only this file and lora.table.ts touch the table.
import { and, asc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { loraServers } from './lora.table.js';
import { containing, likeEscaped } from '../../platform/db/like.js';
import { pageOf } from '../../platform/db/page.js';

export type LoraServerRow = typeof loraServers.$inferSelect;
export type LoraServerFields = Pick<LoraServerRow, 'mac' | 'name' | 'server'> & { applicationUuid?: string | null };

export function createLoraStore(store: AppStore) {
  const { db } = store;
  return {
    /** the application's entry, undefined for an unknown id or another application's entry */
    byId: (appId: number, id: number): Promise<LoraServerRow | undefined> =>
      db
        .select()
        .from(loraServers)
        .where(and(eq(loraServers.appId, appId), eq(loraServers.id, id)))
        .get(),

    /** the id of the application's entry with this MAC */
    async idByMac(appId: number, mac: string): Promise<number | undefined> {
      const row = await db
        .select({ id: loraServers.id })
        .from(loraServers)
        .where(and(eq(loraServers.appId, appId), eq(loraServers.mac, mac)))
        .get();
      return row?.id;
    },

    /** a page of the application's entries by id, those whose MAC, name or server holds `search` (literally, any case) */
    async page(appId: number, q: { search?: string; page: number; size: number }) {
      const p = q.search ? containing(q.search) : undefined;
      const where = and(
        eq(loraServers.appId, appId),
        p
          ? or(likeEscaped(loraServers.mac, p), likeEscaped(loraServers.name, p), likeEscaped(loraServers.server, p))
          : undefined,
      );
      return pageOf(db, loraServers, where, [asc(loraServers.id)], q);
    },

    /** a new entry; a MAC the application has already is refused by its unique index (thrown as is) */
    async insert(appId: number, fields: LoraServerFields, createdAt: number): Promise<LoraServerRow> {
      const [row] = await db
        .insert(loraServers)
        .values({ appId, ...fields, createdAt })
        .returning();
      return row!;
    },

    async update(id: number, fields: LoraServerFields): Promise<LoraServerRow | undefined> {
      const [row] = await db.update(loraServers).set(fields).where(eq(loraServers.id, id)).returning();
      return row;
    },

    async remove(id: number): Promise<void> {
      await db.delete(loraServers).where(eq(loraServers.id, id));
    },

    /** every entry that records its network server's own application id (the broker's topic rules keep them) */
    applicationUuids: (): Promise<{ id: number; appId: number; uuid: string }[]> =>
      db
        .select({ id: loraServers.id, appId: loraServers.appId, uuid: sql<string>`${loraServers.applicationUuid}` })
        .from(loraServers)
        .where(isNotNull(loraServers.applicationUuid))
        .orderBy(asc(loraServers.id)),
  };
}

export type LoraStore = ReturnType<typeof createLoraStore>;
