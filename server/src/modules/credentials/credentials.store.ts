// The credentials table: an application's pairs, and the one probe per API-key call that finds a pair.
import { and, asc, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { credentials } from './credentials.table.js';

export type CredentialsRow = typeof credentials.$inferSelect;
type New = Omit<typeof credentials.$inferInsert, 'id'>;
type Changes = Partial<Pick<CredentialsRow, 'scopes' | 'details' | 'secretSealed' | 'secretHash' | 'updatedAt'>>;

export function createCredentialsStore(store: AppStore) {
  const db = store.db;

  return {
    byId: (appId: number, id: number): Promise<CredentialsRow | undefined> =>
      db
        .select()
        .from(credentials)
        .where(and(eq(credentials.appId, appId), eq(credentials.id, id)))
        .get(),

    list: (appId: number): Promise<CredentialsRow[]> =>
      db.select().from(credentials).where(eq(credentials.appId, appId)).orderBy(asc(credentials.id)),

    idTaken: async (appId: number, credentialsId: string) =>
      (await db
        .select({ id: credentials.id })
        .from(credentials)
        .where(and(eq(credentials.appId, appId), eq(credentials.credentialsId, credentialsId)))
        .get()) !== undefined,

    /** the new pair, or undefined when its credentials id was taken meanwhile (the unique index decides) */
    create: (values: New): Promise<CredentialsRow | undefined> =>
      db.insert(credentials).values(values).onConflictDoNothing().returning().get(),

    /** the pair after the change, or undefined when there is none */
    update: (id: number, set: Changes): Promise<CredentialsRow | undefined> =>
      db.update(credentials).set(set).where(eq(credentials.id, id)).returning().get(),

    remove: async (id: number) => {
      await db.delete(credentials).where(eq(credentials.id, id));
    },

    /** the pair `credentialsId` of the application, by the index the authenticator probes */
    pair: (appId: number, credentialsId: string) =>
      db
        .select({ id: credentials.id, secretHash: credentials.secretHash, scopes: credentials.scopes })
        .from(credentials)
        .where(and(eq(credentials.appId, appId), eq(credentials.credentialsId, credentialsId)))
        .get(),

    // ---- the LoRa network-server sign-in (devices' broker authority) ----

    /** the pair of this credentials id and secret hash, in any application: its row id and application */
    pairByHash: (credentialsId: string, secretHash: string): Promise<{ id: number; appId: number } | undefined> =>
      db
        .select({ id: credentials.id, appId: credentials.appId })
        .from(credentials)
        .where(and(eq(credentials.credentialsId, credentialsId), eq(credentials.secretHash, secretHash)))
        .get(),
  };
}

export type CredentialsStore = ReturnType<typeof createCredentialsStore>;
