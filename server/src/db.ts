// The database type every domain module works with.
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type * as schema from './schema.js';

export type Db = BetterSQLite3Database<typeof schema>;
