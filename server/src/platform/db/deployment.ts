// The deployment's id, read from its database (made there the first time): every gateway that opens the same database
// gets the same id, and a gateway with another database another one.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import type { Store } from './store.js';

/** the id of the deployment this database belongs to (16 hex characters), made on first use */
export function deploymentId(sqlite: Database.Database, now = Date.now): string {
  const read = () => sqlite.prepare('SELECT id FROM deployment LIMIT 1').pluck().get() as string | undefined;
  const found = read();
  if (found !== undefined) return found;
  // two gateways opening a new shared database at once: the first insert wins, both read it back
  sqlite
    .transaction(() => {
      if (read() === undefined)
        sqlite
          .prepare('INSERT INTO deployment (id, created_at) VALUES (?, ?)')
          .run(randomBytes(8).toString('hex'), now());
    })
    .immediate();
  return read()!;
}

/** one lock id for every gateway: the first id of a new database is made by one of them at a time */
const DEPLOYMENT_LOCK = 0x5e47b;

/** the store's part this needs (any schema) */
type DeploymentStore = Pick<Store<Record<string, unknown>>, 'kind' | 'one' | 'exec' | 'tx'>;

/**
 * The same on either engine, through the store. The table has no row that makes a second insert conflict (its key is
 * the id), so gateways opening a new shared database at once take turns: SQLite's transaction begins with the write
 * lock (BEGIN IMMEDIATE), PostgreSQL's takes a transaction-scoped advisory lock first; inside, each reads, and only one
 * that finds no id makes one. The read after the lock sees what the one before committed (READ COMMITTED takes its
 * snapshot per statement).
 */
export async function deploymentIdOf(store: DeploymentStore, now = Date.now): Promise<string> {
  const read = async () => (await store.one<{ id: string }>(sql`SELECT id FROM deployment LIMIT 1`))?.id;
  const found = await read();
  if (found !== undefined) return found;
  return store.tx(async () => {
    if (store.kind === 'postgres') await store.exec(sql`SELECT pg_advisory_xact_lock(${DEPLOYMENT_LOCK})`);
    const first = await read();
    if (first !== undefined) return first;
    const id = randomBytes(8).toString('hex');
    await store.exec(sql`INSERT INTO deployment (id, created_at) VALUES (${id}, ${now()})`);
    return id;
  });
}
