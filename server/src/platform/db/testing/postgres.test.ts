import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { hasPostgres, startPostgres, testDatabase } from './postgres.js';

describe.skipIf(!hasPostgres)('the test PostgreSQL', () => {
  it('gives each suite a database of its own in the shared cluster', async () => {
    const [a, b] = [await testDatabase(), await testDatabase()];
    expect(a).not.toBe(b);
    const client = new pg.Client({ connectionString: a });
    await client.connect();
    const { rows } = await client.query<{ v: string }>("select current_setting('server_version') as v");
    await client.end();
    expect(Number(rows[0]!.v.split('.')[0])).toBeGreaterThanOrEqual(15);
  });

  it('starts a cluster of its own that survives an immediate restart with what was committed', async () => {
    const cluster = await startPostgres();
    try {
      const url = await cluster.createDatabase('crash');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('create table t (n int); insert into t values (1), (2)');
      await client.end();
      await cluster.restart('immediate');
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      const { rows } = await again.query<{ n: number }>('select count(*)::int as n from t');
      await again.end();
      expect(rows[0]!.n).toBe(2);
    } finally {
      await cluster.destroy();
    }
  });
});
