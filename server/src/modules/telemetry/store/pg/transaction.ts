// One transaction on one pooled connection. While it is checked out, a connection has no 'error' listener of the
// pool's: a socket lost mid-transaction would be an uncaught error (a crashed gateway), so it is recorded here, and a
// connection that lost its socket or could not roll back is dropped instead of going back to the pool.
import type pg from 'pg';

export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  opts: { onBegin?: (client: pg.PoolClient) => Promise<void> } = {},
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const lost = (err: Error) => (broken ??= err);
  client.on('error', lost);
  try {
    await client.query('begin');
    try {
      await opts.onBegin?.(client);
      const out = await work(client);
      await client.query('commit');
      return out;
    } catch (err) {
      await client.query('rollback').catch((e: Error) => (broken ??= e));
      throw err;
    }
  } finally {
    client.removeListener('error', lost);
    client.release(broken);
  }
}
