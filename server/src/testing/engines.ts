// Test support: the same suite on both engines. `forEachEngine` opens a store with the whole schema migrated on SQLite
// (in memory) and on PostgreSQL (a fresh database of the run's shared cluster, the PostgreSQL migrations applied), so
// a domain's store is checked against one set of expectations on both. Without PostgreSQL a developer's run skips the
// PostgreSQL half and says so; CI fails (platform/testing/required.ts).
import { describe } from 'vitest';
import type { AppStore } from '../db.js';
import * as schema from '../schema.js';
import { openPostgres } from '../platform/db/postgres.js';
import { findUp, openDb } from '../platform/db/sqlite.js';
import { postgresStore, sqliteStore, type EngineKind } from '../platform/db/store.js';
import { hasPostgres, testDatabase } from '../platform/db/testing/postgres.js';

export interface OpenedStore {
  store: AppStore;
  kind: EngineKind;
  close(): Promise<void>;
}

export async function openSqliteStore(): Promise<OpenedStore> {
  const handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  return { store: sqliteStore(handle.sqlite, schema), kind: 'sqlite', close: async () => handle.close() };
}

export async function openPostgresStore(): Promise<OpenedStore> {
  const pg = await openPostgres({ url: await testDatabase(), migrationsFolder: findUp('drizzle-pg', import.meta.url) });
  return { store: postgresStore(pg.pool, schema), kind: 'postgres', close: () => pg.close() };
}

/** `suite(open)` once per engine, inside a describe named after it; `open` gives a fresh, migrated store */
export function forEachEngine(name: string, suite: (open: () => Promise<OpenedStore>, kind: EngineKind) => void): void {
  describe(`${name} (SQLite)`, () => suite(openSqliteStore, 'sqlite'));
  describe.skipIf(!hasPostgres)(`${name} (PostgreSQL)`, () => suite(openPostgresStore, 'postgres'));
}
