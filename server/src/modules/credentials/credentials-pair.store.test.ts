// The credentials pair a LoRa network server signs in with, found by id and secret hash on both engines.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { seedApplications } from '../devices/testing/applications.js';
import { createCredentialsStore } from './credentials.store.js';

forEachEngine('credentials pair by secret hash', (open) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
    await seedApplications(opened.store);
    await opened.store.exec(
      sql`insert into credentials (id, app_id, category, credentials_id, secret_sealed, secret_hash, created_at, updated_at) values (7, 2, 21, 'ns-key', 'sealed', 'hash-7', 0, 0)`,
    );
  });
  afterAll(() => opened?.close());

  it('answers the pair only when both the id and the hash match', async () => {
    const { pairByHash } = createCredentialsStore(opened.store);
    expect(await pairByHash('ns-key', 'hash-7')).toEqual({ id: 7, appId: 2 });
    expect(await pairByHash('ns-key', 'hash-8')).toBeUndefined();
    expect(await pairByHash('NS-KEY', 'hash-7')).toBeUndefined();
  });
});
