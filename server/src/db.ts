// The database type every domain module works with.
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type * as schema from './schema.js';
import type { Store } from './platform/db/store.js';

export type Db = BetterSQLite3Database<typeof schema>;

/** the storage boundary's asynchronous store, on SQLite or PostgreSQL (platform/db/store.ts) */
export type AppStore = Store<typeof schema>;
