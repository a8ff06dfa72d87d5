// One writer at a time per key, inside a transaction: what a write picks from what it reads (a free path, a next
// number) stays free until it commits. SQLite's write transactions already run one at a time (BEGIN IMMEDIATE);
// PostgreSQL's run side by side at READ COMMITTED, so the key is locked there with a transaction-scoped advisory lock
// (released at commit or rollback). Two int4 keys: `space` names what is locked, `key` which one (an id).
import { sql } from 'drizzle-orm';
import type { Store } from './store.js';

/** the lock spaces (the first key); each distinct from the telemetry store's (pg/states.ts, pg/layout.ts) */
export const LockSpace = {
  /** an application's dashboard paths */
  dashboardPaths: 0x5e480,
} as const;

/** holds `space`/`key` until the current transaction ends; call it inside store.tx */
export async function lockKey(
  store: Pick<Store<Record<string, unknown>>, 'kind' | 'exec'>,
  space: number,
  key: number,
): Promise<void> {
  if (store.kind !== 'postgres') return;
  await store.exec(sql`select pg_advisory_xact_lock(${space}::int, (${key}::bigint % 2147483647)::int)`);
}
