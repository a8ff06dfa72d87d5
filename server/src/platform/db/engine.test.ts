import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openEngine, redactedUrl } from './engine.js';
import { hasPostgres, testDatabase } from './testing/postgres.js';

describe('the storage engine chosen by the configuration', () => {
  it('opens SQLite in DATA_DIR when DATABASE_URL is unset, migrated', async () => {
    const engine = await openEngine({ DATA_DIR: ':memory:' });
    try {
      expect(engine.kind).toBe('sqlite');
      expect(engine.where).toBe('database (DATA_DIR=:memory:)');
      expect(await engine.store.one(sql`select count(*) as n from tenants`)).toEqual({ n: 0 });
    } finally {
      await engine.close();
    }
  });

  it.skipIf(!hasPostgres)('opens PostgreSQL at DATABASE_URL, migrated, and names it without the password', async () => {
    const url = await testDatabase();
    const withPassword = url.replace('postgres@', 'postgres:rahasia@');
    const engine = await openEngine({ DATA_DIR: '/nowhere', DATABASE_URL: url, DATABASE_POOL_SIZE: 4 });
    try {
      expect(engine.kind).toBe('postgres');
      expect(await engine.store.one(sql`select count(*) as n from tenants`)).toEqual({ n: 0 });
      expect(redactedUrl(withPassword)).not.toContain('rahasia');
      expect(redactedUrl(withPassword)).toContain('postgres:***@127.0.0.1');
    } finally {
      await engine.close();
    }
  });

  it('fails at open with the cause when PostgreSQL cannot be reached', async () => {
    await expect(
      openEngine({ DATA_DIR: '/nowhere', DATABASE_URL: 'postgres://sentra@127.0.0.1:1/sentra' }),
    ).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});
