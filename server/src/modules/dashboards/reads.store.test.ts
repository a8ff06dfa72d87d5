// What the dashboards domain asks of other domains, on both engines: the role of an account and a role's selection
// (the grants), and the devices, stored series, state keys and tag options the card editor chooses from (selection).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { applications } from '../apps/apps.table.js';
import { tenants } from '../auth/auth.table.js';
import { devices } from '../devices/devices.table.js';
import { devicesForSelection } from '../devices/devices.store.js';
import { roleNavs, roles } from '../roles/roles.table.js';
import { roleSelection } from '../roles/roles.store.js';
import { deviceStates } from '../states/states.table.js';
import { stateKeysOfApp } from '../states/states.reads.js';
import { tagCategories, tagDefinitions } from '../tags/tags.table.js';
import { tagOptions } from '../tags/tags.store.js';
import { seriesOfApp } from '../telemetry/read/series-catalogue.js';
import { telemetrySeries } from '../telemetry/telemetry.table.js';
import { accounts } from '../users/users.table.js';
import { roleOfAccount } from '../users/users.store.js';
import { dashboards } from './dashboards.table.js';

forEachEngine('what dashboards read of other domains', (open) => {
  let opened: OpenedStore;
  let app: number;
  let other: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    opened = await open();
    const { db } = opened.store;
    const [t] = await db
      .insert(tenants)
      .values({
        username: 'budi',
        first: 'Budi',
        email: 'b@x.id',
        passHash: 'x',
        tenantName: 'PT',
        billingExpiresAt: 0,
        createdAt: 0,
      })
      .returning({ id: tenants.id });
    const newApp = async (domain: string) =>
      (
        await db
          .insert(applications)
          .values({ tenantId: t!.id, name: domain, domain, createdAt: 0 })
          .returning({ id: applications.id })
      )[0]!.id;
    app = await newApp('kebun');
    other = await newApp('pabrik');
    const dash = async (appId: number, path: string) =>
      (
        await db.insert(dashboards).values({ appId, label: path, path, createdAt: 0 }).returning({ id: dashboards.id })
      )[0]!.id;
    ids.d1 = await dash(app, 'a');
    ids.d2 = await dash(app, 'b');
    ids.d3 = await dash(app, 'c');
    const role = async (appId: number, name: string, descendant: boolean) =>
      (
        await db
          .insert(roles)
          .values({ appId, name, descendant, createdAt: 0, updatedAt: 0 })
          .returning({ id: roles.id })
      )[0]!.id;
    ids.operator = await role(app, 'operator', true);
    ids.empty = await role(app, 'kosong', false);
    ids.foreignRole = await role(other, 'operator', false);
    // the role's order is its sort, not the ids'
    await db.insert(roleNavs).values([
      { roleId: ids.operator, dashboardId: ids.d3!, sort: 0 },
      { roleId: ids.operator, dashboardId: ids.d1!, sort: 1 },
    ]);
    const account = async (appId: number, username: string, roleId: number | null) =>
      (
        await db
          .insert(accounts)
          .values({ appId, username, email: `${username}@x.id`, first: username, passHash: 'x', roleId, createdAt: 0 })
          .returning({ id: accounts.id })
      )[0]!.id;
    ids.siti = await account(app, 'siti', ids.operator);
    ids.tono = await account(app, 'tono', null);
    ids.foreignAccount = await account(other, 'siti', ids.foreignRole);

    const device = async (appId: number, name: string, more: Partial<typeof devices.$inferInsert> = {}) =>
      (
        await db
          .insert(devices)
          .values({
            appId,
            name,
            serialNumber: `SN-${name}`,
            category: 8,
            deviceType: 'MQTT',
            createdAt: 0,
            updatedAt: 0,
            ...more,
          })
          .returning({ id: devices.id })
      )[0]!.id;
    ids.meter = await device(app, 'meter', {
      label: 'Panel A',
      sensors: '{"pm":{"data":{"v":"number"}}}',
      tags: '{"gedung":["a"]}',
    });
    ids.pump = await device(app, 'pump');
    ids.foreignDevice = await device(other, 'meter');
    const series = (appId: number, deviceId: number, param: string, subparam = '') =>
      db.insert(telemetrySeries).values({
        appId,
        deviceId,
        sensor: 'pm',
        configtype: 'data',
        param,
        subparam,
        datatype: 'number',
        createdAt: 0,
      });
    await series(app, ids.pump!, 'p');
    await series(app, ids.meter!, 'v', 'l1');
    await series(other, ids.foreignDevice!, 'v');
    const state = (appId: number, deviceId: number, key: string) =>
      db.insert(deviceStates).values({ appId, deviceId, key, value: '1', initialTs: 0, latestTs: 0 });
    await state(app, ids.pump!, 'POWER');
    await state(app, ids.meter!, 'Mode');
    await state(app, ids.meter!, 'POWER');
    await state(other, ids.foreignDevice!, 'POWER');
    const category = async (appId: number, prefix: string) =>
      (
        await db
          .insert(tagCategories)
          .values({ appId, name: prefix, prefix, category: 1, createdAt: 0 })
          .returning({ id: tagCategories.id })
      )[0]!.id;
    const gedung = await category(app, 'gedung');
    const lain = await category(other, 'lain');
    await db.insert(tagDefinitions).values([
      { categoryId: gedung, name: 'B', nameLc: 'b', createdAt: 0 },
      { categoryId: gedung, name: 'A', nameLc: 'a', createdAt: 0 },
      { categoryId: lain, name: 'X', nameLc: 'x', createdAt: 0 },
    ]);
  });
  afterAll(() => opened.close());

  it("reads an account's role in its application: null for none, undefined for no such account", async () => {
    expect(await roleOfAccount(opened.store, app, ids.siti!)).toBe(ids.operator);
    expect(await roleOfAccount(opened.store, app, ids.tono!)).toBeNull();
    expect(await roleOfAccount(opened.store, app, ids.foreignAccount!)).toBeUndefined();
  });

  it("reads a role's selection in the role's order, and nothing of another application's role", async () => {
    expect(await roleSelection(opened.store, app, ids.operator!)).toEqual({
      descendant: true,
      selected: [ids.d3, ids.d1],
    });
    expect(await roleSelection(opened.store, app, ids.empty!)).toEqual({ descendant: false, selected: [] });
    expect(await roleSelection(opened.store, app, ids.foreignRole!)).toBeUndefined();
  });

  it("lists the application's devices, series, state keys and tag options, and none of another's", async () => {
    expect(await devicesForSelection(opened.store, app)).toEqual([
      {
        id: ids.meter,
        name: 'meter',
        label: 'Panel A',
        serial: 'SN-meter',
        sensors: '{"pm":{"data":{"v":"number"}}}',
        tags: '{"gedung":["a"]}',
      },
      { id: ids.pump, name: 'pump', label: null, serial: 'SN-pump', sensors: '{}', tags: '{}' },
    ]);
    const common = { sensor: 'pm', configtype: 'data', datatype: 'number' };
    expect(await seriesOfApp(opened.store, app)).toEqual([
      { deviceId: ids.pump, param: 'p', subparam: '', ...common },
      { deviceId: ids.meter, param: 'v', subparam: 'l1', ...common },
    ]);
    expect(await stateKeysOfApp(opened.store, app)).toEqual([
      { deviceId: ids.meter, key: 'Mode' },
      { deviceId: ids.meter, key: 'POWER' },
      { deviceId: ids.pump, key: 'POWER' },
    ]);
    expect(await tagOptions(opened.store, app)).toEqual([
      { prefix: 'gedung', value: 'b' },
      { prefix: 'gedung', value: 'a' },
    ]);
    expect(await devicesForSelection(opened.store, app + other + 1)).toEqual([]);
  });
});
