// The device facts other domains read (the card engine's device functions, list and map cards) on both engines: one
// device by id inside its application only, every device of an application by id, the registry's columns as facts
// (booleans, the label falling back to the name, tags and their match keys, a damaged tags column matching nothing).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createDeviceFactsReads, matchesTags, type DeviceFactsReads } from './device-facts.js';
import { devices } from './devices.table.js';
import { seedApplications } from './testing/applications.js';

forEachEngine('device facts', (open) => {
  let opened: OpenedStore;
  let facts: DeviceFactsReads;
  const row = (id: number, appId: number, extra: Partial<typeof devices.$inferInsert> = {}) => ({
    id,
    appId,
    category: 8,
    categoryText: 'MQTT',
    deviceType: 'MQTT',
    name: `Meter ${id}`,
    serialNumber: `SN-${id}`,
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  });
  beforeEach(async () => {
    opened = await open();
    await seedApplications(opened.store);
    await opened.store.db.insert(devices).values([
      row(3, 1, {
        label: 'Panel A',
        latitude: -6.2,
        longitude: 106.8,
        online: true,
        lastOnlineTs: 1_700_000_000_000,
        firmwareVersion: '2.1',
        tags: JSON.stringify({ gedung: ['gedung_a'], lantai: ['1', '2'] }),
      }),
      row(1, 1, { disabled: true, tags: 'not json' }),
      row(2, 2),
    ]);
    facts = createDeviceFactsReads(opened.store);
  });
  afterEach(() => opened?.close());

  it('answers one device of the application as its facts, null for an unknown id or another application', async () => {
    const d = await facts.one(1, 3);
    expect(d).toMatchObject({
      id: 3,
      appId: 1,
      name: 'Meter 3',
      label: 'Panel A',
      serialNumber: 'SN-3',
      category: 8,
      categoryText: 'MQTT',
      deviceType: 'MQTT',
      firmwareVersion: '2.1',
      latitude: -6.2,
      longitude: 106.8,
      online: true,
      lastOnlineTs: 1_700_000_000_000,
      disabled: false,
      tags: { gedung: ['gedung_a'], lantai: ['1', '2'] },
    });
    expect([...d!.tagKeys].sort()).toEqual(['1', '2', 'gedung:gedung_a', 'gedung_a', 'lantai:1', 'lantai:2']);
    expect(await facts.one(1, 2)).toBeNull();
    expect(await facts.one(2, 3)).toBeNull();
    expect(await facts.one(1, 99)).toBeNull();
    // the prepared read with other values answers them, not the first call's
    expect((await facts.one(2, 2))?.name).toBe('Meter 2');
  });

  it('answers every device of an application by id; a device without a label is called by its name', async () => {
    const all = await facts.ofApplication(1);
    expect(all.map((d) => d.id)).toEqual([1, 3]);
    expect(all[0]).toMatchObject({ label: 'Meter 1', online: false, disabled: true, tags: {}, lastOnlineTs: null });
    expect(all[0]!.tagKeys.size).toBe(0);
    expect((await facts.ofApplication(2)).map((d) => d.id)).toEqual([2]);
    expect(await facts.ofApplication(3)).toEqual([]);
  });

  it('matches tags by value or by "category:value"; no tags match every device', async () => {
    const d = (await facts.one(1, 3))!;
    expect(matchesTags(d, ['gedung_a'])).toBe(true);
    expect(matchesTags(d, ['lantai:2', 'x'])).toBe(true);
    expect(matchesTags(d, ['gedung:lantai'])).toBe(false);
    expect(matchesTags(d, [])).toBe(true);
    expect(matchesTags((await facts.one(1, 1))!, ['gedung_a'])).toBe(false);
  });
});
