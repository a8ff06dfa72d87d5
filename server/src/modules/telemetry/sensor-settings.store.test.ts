// The sensor settings on both engines: a sensor row's policies and tags saved and read back; the tag maps the tags
// domain rewrites, found by device and text, across more devices than one IN list holds, and written back.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { seedApplications } from '../devices/testing/applications.js';
import { createSensorSettingsStore } from './sensor-settings.store.js';

forEachEngine('sensor settings store', (open) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
    await seedApplications(opened.store);
  });
  afterAll(() => opened?.close());

  it('finds the tag maps of the given devices that match, past one IN list, and rewrites one', async () => {
    const { store } = opened;
    const ids: number[] = [];
    await store.tx(async () => {
      for (let i = 1; i <= 520; i++) {
        ids.push(i);
        await store.exec(
          sql`insert into devices (id, app_id, category, device_type, name, serial_number, created_at, updated_at) values (${i}, 1, 1, 'DUMMY', ${`D${i}`}, ${`S${i}`}, 0, 0)`,
        );
      }
      for (const [id, key, tags] of [
        [3, 'env.data.t', '{"lokasi":["gudang"]}'],
        [3, 'env.data.h', '{"zona":["A"]}'],
        [519, 'env.data.t', '{"lokasi":["pabrik"]}'],
      ] as const)
        await store.exec(
          sql`insert into sensor_settings (device_id, key, tags, updated_at) values (${id}, ${key}, ${tags}, 0)`,
        );
    });
    const settings = createSensorSettingsStore(store);
    expect(await settings.tagMapsMatching(ids, '%"lokasi"%')).toEqual([
      { deviceId: 3, key: 'env.data.t', tags: '{"lokasi":["gudang"]}' },
      { deviceId: 519, key: 'env.data.t', tags: '{"lokasi":["pabrik"]}' },
    ]);
    expect(await settings.tagMapsMatching([3], '%"lokasi"%')).toHaveLength(1);
    expect(await settings.tagMapsMatching([], '%')).toEqual([]);
    await settings.setTags(3, 'env.data.t', '{}', 9);
    expect(
      await store.rows(sql`select tags, updated_at from sensor_settings where device_id = 3 order by key`),
    ).toEqual([
      { tags: '{"zona":["A"]}', updated_at: 0 },
      { tags: '{}', updated_at: 9 },
    ]);
  });

  it("saves a sensor row's policies and tags, each keeping the other, and reads them back", async () => {
    const { store } = opened;
    await store.exec(
      sql`insert into devices (id, app_id, category, device_type, name, serial_number, created_at, updated_at) values (900, 1, 1, 'DUMMY', 'P', 'P900', 0, 0)`,
    );
    const settings = createSensorSettingsStore(store);
    expect(await settings.settingsOf(900, 'env.data.t')).toBeUndefined();
    expect(await settings.save(900, 'env.data.t', { policies: '{"min":1}' }, 5)).toMatchObject({
      deviceId: 900,
      key: 'env.data.t',
      policies: '{"min":1}',
      tags: '{}',
      updatedAt: 5,
    });
    await settings.save(900, 'env.data.t', { tags: '{"lokasi":["gudang"]}' }, 6);
    expect(await settings.settingsOf(900, 'env.data.t')).toMatchObject({
      policies: '{"min":1}',
      tags: '{"lokasi":["gudang"]}',
      updatedAt: 6,
    });
    expect(await settings.settingsOf(900, 'env.data.h')).toBeUndefined();
  });
});
