// The LoRa store on both engines: an application's network server entries (a MAC once per application), the list's
// page and search (a `%` or `_` typed by a user stays literal), and the application ids the broker keeps in memory.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isUniqueViolation } from '../../platform/db/unique.js';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { seedApplications } from '../devices/testing/applications.js';
import { createLoraStore, type LoraStore } from './lora.store.js';
import { loraApplications } from './network-server-auth.js';

forEachEngine('LoRa store', (open) => {
  let opened: OpenedStore;
  let lora: LoraStore;
  beforeAll(async () => {
    opened = await open();
    await seedApplications(opened.store);
    lora = createLoraStore(opened.store);
  });
  afterAll(() => opened?.close());

  it('adds, reads within its application, edits (keeping an unnamed UUID) and removes', async () => {
    const row = await lora.insert(1, { mac: 'AA:01', name: 'NS Utama', server: 'ns.local' }, 5);
    expect(row).toMatchObject({ appId: 1, mac: 'AA:01', applicationUuid: null, createdAt: 5 });
    expect(await lora.byId(1, row.id)).toEqual(row);
    expect(await lora.byId(2, row.id)).toBeUndefined();
    expect(await lora.idByMac(1, 'AA:01')).toBe(row.id);
    expect(await lora.idByMac(2, 'AA:01')).toBeUndefined();
    const uuid = 'f0e1d2c3-0000-4000-8000-000000000001';
    expect(await lora.update(row.id, { mac: 'AA:01', name: 'NS', server: 'ns', applicationUuid: uuid })).toMatchObject({
      name: 'NS',
      applicationUuid: uuid,
    });
    expect(await lora.update(row.id, { mac: 'AA:02', name: 'NS', server: 'ns' })).toMatchObject({
      mac: 'AA:02',
      applicationUuid: uuid,
    });
    await lora.remove(row.id);
    expect(await lora.byId(1, row.id)).toBeUndefined();
    expect(await lora.update(row.id, { mac: 'x', name: 'x', server: 'x' })).toBeUndefined();
  });

  it('refuses a MAC the application has already, not one another application has', async () => {
    await lora.insert(1, { mac: 'BB:01', name: 'A', server: 'a' }, 1);
    expect(isUniqueViolation(await lora.insert(1, { mac: 'BB:01', name: 'B', server: 'b' }, 1).catch((e) => e))).toBe(
      true,
    );
    await lora.insert(2, { mac: 'BB:01', name: 'C', server: 'c' }, 1);
  });

  it("pages by id and searches MAC, name and server without case, a user's % and _ literal", async () => {
    await lora.insert(2, { mac: 'CC:01', name: 'Gateway 100%', server: 'ns_1.local' }, 1);
    await lora.insert(2, { mac: 'CC:02', name: 'Kebun', server: 'nsx1.local' }, 1);
    const all = await lora.page(2, { page: 0, size: 2 });
    expect(all.total).toBe(3);
    expect(all.rows.map((r) => r.mac)).toEqual(['BB:01', 'CC:01']);
    expect((await lora.page(2, { page: 1, size: 2 })).rows.map((r) => r.mac)).toEqual(['CC:02']);
    expect((await lora.page(2, { search: 'KEBUN', page: 0, size: 9 })).total).toBe(1);
    expect((await lora.page(2, { search: '0%', page: 0, size: 9 })).rows.map((r) => r.mac)).toEqual(['CC:01']);
    expect((await lora.page(2, { search: 'ns_', page: 0, size: 9 })).rows.map((r) => r.mac)).toEqual(['CC:01']);
  });

  it('reads the recorded application ids; the broker answers them from memory and after a reload', async () => {
    const a = await lora.insert(1, { mac: 'DD:01', name: 'A', server: 'a', applicationUuid: 'uuid-a' }, 1);
    await lora.insert(2, { mac: 'DD:02', name: 'B', server: 'b', applicationUuid: 'uuid-b' }, 1);
    expect(await lora.applicationUuids()).toEqual([
      { id: a.id, appId: 1, uuid: 'uuid-a' },
      expect.objectContaining({ appId: 2, uuid: 'uuid-b' }),
    ]);
    let t = 0;
    const apps = await loraApplications(lora, { now: () => t });
    expect(apps.uuidsOf(1)).toEqual(['uuid-a']);
    expect(apps.names(1, 'UUID-A')).toBe(true);
    expect(apps.names(1, '1')).toBe(true);
    expect(apps.names(1, 'uuid-b')).toBe(false);
    expect(apps.levelOf(1, a.id)).toBe('uuid-a');
    expect(apps.levelOf(2, a.id)).toBe('2');
    expect(apps.levelOf(1, null)).toBe('1');
    await lora.update(a.id, { mac: 'DD:01', name: 'A', server: 'a', applicationUuid: 'uuid-c' });
    // within its time this gateway's memory answers (the service reloads after its own edits)
    expect(apps.uuidsOf(1)).toEqual(['uuid-a']);
    await apps.reload();
    expect(apps.uuidsOf(1)).toEqual(['uuid-c']);
  });
});
