// The gateway's PostgreSQL pool survives its server ending connections (a restart, an administrator's
// pg_terminate_backend), whether the connection was idle in the pool or checked out between two queries.
import { describe, expect, it } from 'vitest';
import { openPostgres } from './postgres.js';
import { isStorageFault } from './storage-fault.js';
import { hasPostgres, testDatabase } from './testing/postgres.js';

describe.skipIf(!hasPostgres)('the PostgreSQL pool when the server ends a connection', () => {
  it('a checked-out client loses its connection: its next query is a storage fault, the gateway lives on', async () => {
    const db = await openPostgres({ url: await testDatabase(), max: 4 });
    try {
      const client = await db.pool.connect();
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      // between two queries of its holder, as in a transaction awaiting its caller: the server's FATAL arrives as an
      // 'error' event on the client (without a listener: an uncaught exception that ends the process)
      await db.pool.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await ended;
      const err = await client.query('select 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).not.toBeNull();
      expect(isStorageFault(err)).toBe(true);
      client.release(err as Error);
      // the pool serves the next caller with a new connection
      expect((await db.pool.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });
});
