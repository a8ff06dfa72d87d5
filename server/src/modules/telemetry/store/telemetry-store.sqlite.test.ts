// The telemetry store contract on SQLite: the inline executor (an in-memory database) and the writer thread (a file).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { findUp } from '../../../platform/db/sqlite.js';
import { createLogger } from '../../../platform/log.js';
import { sqliteTelemetryStore } from './sqlite-store.js';
import { ensureClusteredLayout } from './storage.js';
import {
  append,
  batchOf,
  message,
  num,
  telemetryStoreContract,
  type StoreUnderTest,
} from './telemetry-store.contract.js';
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

describe('SQLite retention', () => {
  it('goes through every series, a transaction per few hundred', async () => {
    const t = underTest(new Database(':memory:'), inlineExecutor);
    try {
      const day = Date.UTC(2022, 0, 5);
      const points = Array.from({ length: 1201 }, (_, i) => [num(i + 1, day - 1, 1), num(i + 1, day, 2)]).flat();
      await append(t.store, batchOf(1, [message(points)]));
      const r = await t.store.dropOlderThan(day);
      expect(r.deletedRows).toBe(1201);
      expect(await t.rows('select count(*), min(ts) from telemetry_points')).toEqual([[1201, day]]);
    } finally {
      await t.close();
    }
  });
});
