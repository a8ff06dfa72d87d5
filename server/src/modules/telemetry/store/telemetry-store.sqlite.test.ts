// The telemetry store contract on SQLite: the inline executor (an in-memory database) and the writer thread (a file).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { findUp } from '../../../platform/db/sqlite.js';
import { createLogger } from '../../../platform/log.js';
import { sqliteTelemetryStore } from './sqlite-store.js';
import { ensureClusteredLayout } from './storage.js';
import { telemetryStoreContract, type StoreUnderTest } from './telemetry-store.contract.js';
import { inlineExecutor, threadExecutor, type BatchExecutor } from './writer-thread.js';

function underTest(
  sqlite: Database.Database,
  executorOf: (sqlite: Database.Database) => BatchExecutor,
  cleanup = () => {},
): StoreUnderTest {
  migrate(drizzle(sqlite), { migrationsFolder: findUp('drizzle', import.meta.url) });
  ensureClusteredLayout(sqlite);
  const executor = executorOf(sqlite);
  const store = sqliteTelemetryStore(sqlite, { executor });
  return {
    store,
    run: async (sql, params = []) => void sqlite.prepare(sql).run(...params),
    rows: async (sql, params = []) =>
      sqlite
        .prepare(sql)
        .raw()
        .all(...params) as unknown[][],
    async close() {
      await executor.close();
      sqlite.close();
      cleanup();
    },
  };
}

telemetryStoreContract('sqlite, inline', async () => {
  const sqlite = new Database(':memory:');
  return underTest(sqlite, inlineExecutor);
});

telemetryStoreContract('sqlite, writer thread', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-store-'));
  const sqlite = new Database(path.join(dir, 'sentra.db'));
  sqlite.pragma('journal_mode = WAL');
  return underTest(
    sqlite,
    (db) => threadExecutor(db.name, createLogger('silent')),
    () => fs.rmSync(dir, { recursive: true, force: true }),
  );
});
