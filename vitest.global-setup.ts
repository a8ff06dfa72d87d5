// Once per vitest run: the shared PostgreSQL cluster the two-engine suites take their databases from
// (server/src/platform/db/testing/postgres.ts). Without PostgreSQL a developer's run skips those suites; CI fails.
import { hasPostgres, startPostgres, SHARED_PG_ENV } from './server/src/platform/db/testing/postgres.js';

export default async function setup(): Promise<() => Promise<void>> {
  if (!hasPostgres || process.env[SHARED_PG_ENV]) return async () => undefined;
  // fsync off: a test kills processes, never the machine; synchronous commit stays on (a commit is still a commit)
  const cluster = await startPostgres({ fsync: 'off', full_page_writes: 'off' });
  process.env[SHARED_PG_ENV] = cluster.adminUrl;
  return () => cluster.destroy();
}
