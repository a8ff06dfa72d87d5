// What rules and tasks ask of the other domains, on both engines: each owner's read as app.ts hands it over
// (applications, tenants, accounts, devices, telemetry series), and the node-expiry seed made of them and the tasks.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createAppsStore } from '../apps/apps.store.js';
import { applications } from '../apps/apps.table.js';
import { createAuthStore } from '../auth/auth.store.js';
import { tenants } from '../auth/auth.table.js';
import { createDevicesStore } from '../devices/devices.store.js';
import { devices } from '../devices/devices.table.js';
import { tasks } from '../tasks/tasks.table.js';
import { createTasksStore } from '../tasks/tasks.store.js';
import { seriesIdsOfApp } from '../telemetry/read/series-catalogue.js';
import { telemetrySeries } from '../telemetry/telemetry.table.js';
import { createUsersStore } from '../users/users.store.js';
import { accounts } from '../users/users.table.js';
import type { CompiledRule } from './compile.js';
import { storedLastHeard } from './expiry-seed.js';
import { expiryOf } from './expiry.js';

forEachEngine('the reads rules and tasks ask of other domains', (open) => {
  let opened: OpenedStore;
  let ids: {
    tenant: number;
    other: number;
    app: number;
    app2: number;
    app3: number;
    d1: number;
    d2: number;
    d3: number;
  };
  beforeEach(async () => {
    opened = await open();
    const { db } = opened.store;
    const tenant = (username: string, billingExpiresAt: number) => ({
      username,
      first: username,
      email: `${username}@contoh.id`,
      passHash: 'x',
      tenantName: username,
      billingExpiresAt,
      createdAt: 1,
    });
    const [t1, t2] = await db
      .insert(tenants)
      .values([tenant('budi', 5_000), tenant('sari', 9_000)])
      .returning();
    const [a1, a2, a3] = await db
      .insert(applications)
      .values([
        { tenantId: t1!.id, name: 'Pabrik', domain: 'pabrik', timezone: 'Asia/Makassar', createdAt: 1 },
        { tenantId: t2!.id, name: 'Gudang', domain: 'gudang', createdAt: 1 },
        { tenantId: t1!.id, name: 'Kebun', domain: 'kebun', createdAt: 1 },
      ])
      .returning();
    const device = (appId: number, name: string, on: number | null, off: number | null) => ({
      appId,
      category: 1,
      deviceType: 'x',
      name,
      serialNumber: `SN-${name}`,
      lastOnlineTs: on,
      lastOfflineTs: off,
      createdAt: 1,
      updatedAt: 1,
    });
    const [d1, d2, d3] = await db
      .insert(devices)
      .values([device(a1!.id, 'A', 100, 400), device(a1!.id, 'B', null, null), device(a2!.id, 'C', 50, null)])
      .returning();
    ids = {
      tenant: t1!.id,
      other: t2!.id,
      app: a1!.id,
      app2: a2!.id,
      app3: a3!.id,
      d1: d1!.id,
      d2: d2!.id,
      d3: d3!.id,
    };
  });
  afterEach(() => opened?.close());

  it("answers an application's scope, every application's tenant, a tenant's billing date and username", async () => {
    const apps = createAppsStore(opened.store);
    const auth = createAuthStore(opened.store);
    expect(await apps.scopeById(ids.app)).toEqual({
      id: ids.app,
      tenantId: ids.tenant,
      domain: 'pabrik',
      name: 'Pabrik',
      timezone: 'Asia/Makassar',
    });
    expect(await apps.scopeById(ids.app + 100)).toBeUndefined();
    expect(await apps.tenants()).toEqual([
      { id: ids.app, tenantId: ids.tenant },
      { id: ids.app2, tenantId: ids.other },
      { id: ids.app3, tenantId: ids.tenant },
    ]);
    expect(await auth.billingOf(ids.other)).toBe(9_000);
    expect(await auth.billingOf(ids.other + 100)).toBe(0);
    expect(await auth.tenantUsername(ids.tenant)).toBe('budi');
    expect(await auth.tenantUsername(ids.tenant + 100)).toBeUndefined();
  });

  it("answers an application's account, and its devices: by id, their ids, their presence", async () => {
    const users = createUsersStore(opened.store);
    const devs = createDevicesStore(opened.store);
    const [acc] = await opened.store.db
      .insert(accounts)
      .values({ appId: ids.app, username: 'andi', email: 'a@contoh.id', first: 'Andi', passHash: 'x', createdAt: 1 })
      .returning();
    expect((await users.byId(ids.app, acc!.id))?.username).toBe('andi');
    expect(await users.byId(ids.app2, acc!.id)).toBeUndefined();
    expect((await devs.byId(ids.app, ids.d1))?.serialNumber).toBe('SN-A');
    expect(await devs.byId(ids.app2, ids.d1)).toBeUndefined();
    expect(await devs.idsOf(ids.app)).toEqual([ids.d1, ids.d2]);
    expect(await devs.presenceOf(ids.app)).toEqual([
      { id: ids.d1, on: 100, off: 400 },
      { id: ids.d2, on: null, off: null },
    ]);
  });

  it("seeds the node-expiry watch with each device's newest sign of life and the expiries already reported", async () => {
    const { db } = opened.store;
    const series = await db
      .insert(telemetrySeries)
      .values([
        {
          appId: ids.app,
          deviceId: ids.d1,
          sensor: 's',
          configtype: 'c',
          param: 'p',
          datatype: 'number',
          createdAt: 1,
        },
        {
          appId: ids.app,
          deviceId: ids.d2,
          sensor: 's',
          configtype: 'c',
          param: 'p',
          datatype: 'number',
          createdAt: 1,
        },
        {
          appId: ids.app2,
          deviceId: ids.d3,
          sensor: 's',
          configtype: 'c',
          param: 'p',
          datatype: 'number',
          createdAt: 1,
        },
      ])
      .returning();
    expect(await seriesIdsOfApp(opened.store, ids.app)).toEqual([
      { id: series[0]!.id, deviceId: ids.d1 },
      { id: series[1]!.id, deviceId: ids.d2 },
    ]);
    const task = (deviceId: number, ruleId: number, lastTs: number, category = 10009) => ({
      appId: ids.app,
      ruleId,
      category,
      deviceId,
      title: 't',
      firstTs: lastTs,
      lastTs,
      open: false,
      status: 5,
      createdAt: 1,
      updatedAt: 1,
    });
    // d1 last heard at 400 (offline); d2 at 700 (a point). Rule 1's expiry of d1 was reported after it went silent;
    // rule 2's before it was last heard (an older silence)
    await db.insert(tasks).values([task(ids.d1, 1, 450), task(ids.d1, 2, 300), task(ids.d2, 1, 600)]);
    const last = new Map([[series[1]!.id, [700, 1] as [number, number]]]);
    const rules = new Map([
      [1, { category: 10009, durationMs: 60_000 }],
      [2, { category: 10009, durationMs: 120_000 }],
    ]);
    const seed = storedLastHeard({
      sources: {
        presenceOf: createDevicesStore(opened.store).presenceOf,
        seriesOf: (appId) => seriesIdsOfApp(opened.store, appId),
        lastFired: createTasksStore(opened.store).lastFired,
      },
      engine: { rule: (id) => rules.get(id) as CompiledRule | undefined },
      points: { last: (id) => last.get(id) as never },
    });
    expect(await seed(ids.app)).toEqual([
      { deviceId: ids.d1, at: 400, reported: [expiryOf(60_000)] },
      { deviceId: ids.d2, at: 700, reported: undefined },
    ]);
  });
});
