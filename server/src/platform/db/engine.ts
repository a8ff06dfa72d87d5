// The gateway's storage engine, chosen by the configuration: PostgreSQL when DATABASE_URL is set (every table there,
// migrated at open under an advisory lock; gateways on several hosts share it), else SQLite in DATA_DIR (the embedded
// default). Either way the domains get the same asynchronous store (store.ts); the SQLite handle is kept for the parts
// that run on the SQLite connection itself (the telemetry writer thread, the broker's state file).
import type pg from 'pg';
import type { AppStore } from '../../db.js';
import * as schema from '../../schema.js';
import type { Logger } from '../log.js';
import { openPostgres } from './postgres.js';
import { findUp, openDb, type SqliteHandle } from './sqlite.js';
import { postgresStore, sqliteStore } from './store.js';

export type OpenedEngine =
  | {
      kind: 'sqlite';
      store: AppStore;
      sqlite: SqliteHandle<typeof schema>;
      /** where the data lives, for messages (never a password) */
      where: string;
      close(): Promise<void>;
    }
  | { kind: 'postgres'; store: AppStore; pool: pg.Pool; where: string; close(): Promise<void> };

/** the URL without its password, for logs and errors */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(DATABASE_URL)';
  }
}

export async function openEngine(
  config: { DATA_DIR: string; DATABASE_URL?: string; DATABASE_POOL_SIZE?: number },
  log?: Logger,
): Promise<OpenedEngine> {
  if (config.DATABASE_URL) {
    const handle = await openPostgres({
      url: config.DATABASE_URL,
      max: config.DATABASE_POOL_SIZE,
      migrationsFolder: findUp('drizzle-pg', import.meta.url),
      log,
    });
    return {
      kind: 'postgres',
      store: postgresStore(handle.pool, schema),
      pool: handle.pool,
      where: `database (DATABASE_URL=${redactedUrl(config.DATABASE_URL)})`,
      close: () => handle.close(),
    };
  }
  const handle = openDb({ dataDir: config.DATA_DIR, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  return {
    kind: 'sqlite',
    store: sqliteStore(handle.sqlite, schema),
    sqlite: handle,
    where: `database (DATA_DIR=${config.DATA_DIR})`,
    close: async () => handle.close(),
  };
}
