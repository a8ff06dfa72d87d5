// The storage engine a benchmark's gateway runs on. `BENCH_ENGINE=postgres` starts a PostgreSQL cluster of its own on
// this machine (Debian's package, a free loopback port, durable commits: fsync and synchronous_commit on, as a
// deployment runs) and gives the gateway a fresh database in it; `DATABASE_URL=postgres://…/db` uses that server
// instead (a fresh database is made beside `db`, so the figures start from empty tables). Unset: SQLite in the
// bench's own DATA_DIR.
import pg from 'pg';
import { createDatabaseAt, startPostgres } from '../src/platform/db/testing/postgres.js';

export interface BenchEngine {
  kind: 'sqlite' | 'postgres';
  /** DATABASE_URL for the gateway's config (nothing on SQLite) */
  env: Record<string, string>;
  close(): Promise<void>;
}

async function freshDatabaseBeside(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_${process.pid}_${Date.now().toString(36)}`;
  return {
    url: await createDatabaseAt(url, name),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export async function benchEngine(): Promise<BenchEngine> {
  const given = process.env.DATABASE_URL;
  if (given) {
    const db = await freshDatabaseBeside(given);
    return { kind: 'postgres', env: { DATABASE_URL: db.url }, close: () => db.drop() };
  }
  if (process.env.BENCH_ENGINE !== 'postgres') return { kind: 'sqlite', env: {}, close: async () => undefined };
  // as a deployment runs: every commit durable (the test clusters turn fsync off; a bench must not)
  const cluster = await startPostgres({ shared_buffers: '256MB', max_wal_size: '2GB' });
  const url = await cluster.createDatabase('sentra_bench');
  return { kind: 'postgres', env: { DATABASE_URL: url }, close: () => cluster.destroy() };
}
