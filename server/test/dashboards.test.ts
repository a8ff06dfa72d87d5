// Spec 02 section 7, the dashboard calls: validation with the conf_dashboard v2 schema (-10 with the error's path),
// paths from labels, parents, components, the selection trees, viewing, and who may do what (401, 403, 404).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STATE_CONFIG,
  STATE_SENSOR,
  dashboardsContract,
  navsContract,
  rolesContract,
  tagsContract,
  T,
} from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, memberWithRole, tenantWithApp } from './fixtures.js';

let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.stop());

type Owner = Awaited<ReturnType<typeof tenantWithApp>>;
const tenantAuth = (o: Owner) => ({ tenant: o.tenant, domain: o.domain });

const conf = (dashboard: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  version: '2',
  config: { refresh: 0 },
  view: { decimal: 2 },
  var: {},
  dashboard,
  ...extra,
});
const card = (key: string, over: Record<string, unknown> = {}) => ({
  key,
  cat: 'SINGLE_VALUE_CARD',
  x: 0,
  y: 0,
  w: 1,
  h: 1,
  ...over,
});

async function addDashboard(o: Owner, label: string, more: Record<string, unknown> = {}) {
  const r = await call(gw.url, dashboardsContract.add, { label, conf_dashboard: conf(), ...more }, tenantAuth(o));
  expect(r.body.response_result).toBe(0);
  return r.body as { id: number; path: string };
}

describe('POST nav/add', () => {
  it('adds a dashboard with a path derived from the label, unique in the application', async () => {
    const o = await tenantWithApp(gw.url);
    const a = await addDashboard(o, 'Energi Gedung A');
    const b = await addDashboard(o, 'Energi gedung-A');
    expect(a.path).toBe('energi-gedung-a');
    expect(b.path).toBe('energi-gedung-a-2');
    // another application may use the same path
    const other = await tenantWithApp(gw.url);
    expect((await addDashboard(other, 'Energi Gedung A')).path).toBe('energi-gedung-a');
    const got = await call(gw.url, dashboardsContract.get, { id: a.id }, tenantAuth(o));
    expect(got.body.data).toMatchObject({
      id: a.id,
      label: 'Energi Gedung A',
      desc: '',
      parent: null,
      path: 'energi-gedung-a',
      conf_dashboard: { version: '2' },
    });
  });

  it('answers -10 "Nama dashboard tidak boleh kosong" on a blank name', async () => {
    const o = await tenantWithApp(gw.url);
    const r = await call(gw.url, dashboardsContract.add, { label: '   ', conf_dashboard: conf() }, tenantAuth(o));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      response_result: -10,
      errors: [{ path: 'label', message: T.dashboards.form.nameRequired }],
    });
  });

  it('validates conf_dashboard with the v2 schema and answers -10 with the path of the error', async () => {
    const o = await tenantWithApp(gw.url);
    const cases: [Record<string, unknown>, string, string][] = [
      [conf({}, { config: { refresh: 200 } }), 'conf_dashboard.config.refresh', T.dashboards.form.refreshMin],
      [conf({}, { view: { decimal: 6 } }), 'conf_dashboard.view.decimal', T.dashboards.form.decimalRange],
      [conf({ c1: card('c1', { x: 3, w: 2 }) }), 'conf_dashboard.dashboard.c1.x', T.dashboards.component.outsideGrid],
      [
        conf({ l1: card('l1', { cat: 'LINE_CHART_CARD', w: 1, h: 2 }) }),
        'conf_dashboard.dashboard.l1.w',
        T.dashboards.component.tooSmall(2, 4),
      ],
      [
        conf({ c1: card('c1', { cat: 'NOT_A_CARD' }) }),
        'conf_dashboard.dashboard.c1.cat',
        T.dashboards.component.unknownType,
      ],
      [{ ...conf(), version: '1' }, 'conf_dashboard.version', T.common.invalidInput],
    ];
    for (const [c, path, message] of cases) {
      const r = await call(gw.url, dashboardsContract.add, { label: 'Salah', conf_dashboard: c }, tenantAuth(o));
      expect({ status: r.status, code: r.body.response_result, first: r.body.errors?.[0] }).toEqual({
        status: 400,
        code: -10,
        first: { path, message },
      });
    }
    // JSON text holding the object is accepted; broken JSON is -10 on conf_dashboard
    expect(
      (
        await call(
          gw.url,
          dashboardsContract.add,
          { label: 'Teks', conf_dashboard: JSON.stringify(conf()) },
          tenantAuth(o),
        )
      ).body.response_result,
    ).toBe(0);
    const broken = await call(
      gw.url,
      dashboardsContract.add,
      { label: 'Rusak', conf_dashboard: '{"version":' },
      tenantAuth(o),
    );
    expect(broken.body).toMatchObject({ response_result: -10, errors: [{ path: 'conf_dashboard' }] });
  });

  it('answers 404 for a parent of another application', async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const foreign = await addDashboard(other, 'Asing');
    const r = await call(
      gw.url,
      dashboardsContract.add,
      { label: 'Anak', parent: foreign.id, conf_dashboard: conf() },
      tenantAuth(o),
    );
    expect(r.status).toBe(404);
    expect(r.body.response_result).toBe(-11);
  });
});

describe('POST nav/edit', () => {
  it('saves a layout with id and conf_dashboard only, keeping label, desc and path', async () => {
    const o = await tenantWithApp(gw.url);
    const d = await addDashboard(o, 'Tata Letak', { desc: 'uji' });
    const r = await call(
      gw.url,
      dashboardsContract.edit,
      { id: d.id, conf_dashboard: conf({ c1: card('c1', { x: 2, y: 3, w: 2, h: 1.5 }) }) },
      tenantAuth(o),
    );
    expect(r.body).toEqual({ response_result: 0, id: d.id, path: d.path });
    const got = (await call(gw.url, dashboardsContract.dashboard, { id: d.id }, tenantAuth(o))).body.data;
    expect(got).toMatchObject({ label: 'Tata Letak', desc: 'uji', path: d.path });
    expect(got.conf_dashboard.dashboard.c1).toMatchObject({ x: 2, y: 3, w: 2, h: 1.5 });
  });

  it('derives a new path when the label changes and answers it', async () => {
    const o = await tenantWithApp(gw.url);
    const d = await addDashboard(o, 'Lama');
    const r = await call(
      gw.url,
      dashboardsContract.edit,
      { id: d.id, label: 'Baru Sekali', desc: 'x', parent: null, conf_dashboard: conf() },
      tenantAuth(o),
    );
    expect(r.body).toMatchObject({ response_result: 0, path: 'baru-sekali' });
    const same = await call(
      gw.url,
      dashboardsContract.edit,
      { id: d.id, label: 'Baru Sekali', desc: 'y' },
      tenantAuth(o),
    );
    expect(same.body.path).toBe('baru-sekali');
  });

  it('answers -10 with neither label nor conf_dashboard, and on an invalid conf_dashboard', async () => {
    const o = await tenantWithApp(gw.url);
    const d = await addDashboard(o, 'Kosong');
    expect((await call(gw.url, dashboardsContract.edit, { id: d.id }, tenantAuth(o))).body.response_result).toBe(-10);
    const bad = await call(
      gw.url,
      dashboardsContract.edit,
      { id: d.id, conf_dashboard: conf({ t: card('t', { cat: 'TITLE', h: 2 }) }) },
      tenantAuth(o),
    );
    expect(bad.body).toMatchObject({ response_result: -10, errors: [{ path: 'conf_dashboard.dashboard.t.h' }] });
  });

  it('refuses a parent that is the dashboard itself or one of its descendants (-10 on parent)', async () => {
    const o = await tenantWithApp(gw.url);
    const a = await addDashboard(o, 'Induk');
    const b = await addDashboard(o, 'Anak', { parent: a.id });
    for (const parent of [a.id, b.id]) {
      const r = await call(gw.url, dashboardsContract.edit, { id: a.id, label: 'Induk', parent }, tenantAuth(o));
      expect(r.body).toMatchObject({
        response_result: -10,
        errors: [{ path: 'parent', message: T.dashboards.screens.parentCycle }],
      });
    }
    const nin = await call(gw.url, dashboardsContract.listNin, { id: a.id }, tenantAuth(o));
    expect(nin.body.navs.map((n: { id: number }) => n.id)).not.toContain(b.id);
    const ninChild = await call(gw.url, dashboardsContract.listNin, { id: b.id }, tenantAuth(o));
    expect(ninChild.body.navs.map((n: { id: number }) => n.id)).toEqual([a.id]);
  });
});

describe('POST nav/remove and nav/remove/dashboard', () => {
  it('removes a dashboard; its children move up to its parent and roles stop granting it', async () => {
    const o = await tenantWithApp(gw.url);
    const root = await addDashboard(o, 'Akar');
    const mid = await addDashboard(o, 'Tengah', { parent: root.id });
    const leaf = await addDashboard(o, 'Daun', { parent: mid.id });
    const role = await call(
      gw.url,
      rolesContract.add,
      { name: 'penonton', sys_navs: [], permissions: {}, navs: [mid.id, leaf.id] },
      tenantAuth(o),
    );
    expect((await call(gw.url, dashboardsContract.remove, { id: mid.id }, tenantAuth(o))).body).toEqual({
      response_result: 0,
    });
    expect((await call(gw.url, dashboardsContract.get, { id: leaf.id }, tenantAuth(o))).body.data.parent).toBe(root.id);
    expect((await call(gw.url, dashboardsContract.get, { id: mid.id }, tenantAuth(o))).status).toBe(404);
    const r = await call(gw.url, rolesContract.get, { id: role.body.data.id }, tenantAuth(o));
    expect(r.body.data.navs).toEqual([leaf.id]);
    expect((await call(gw.url, dashboardsContract.remove, { id: mid.id }, tenantAuth(o))).status).toBe(404);
  });

  it('removes one component by key (id = dashboard, dashboard_id = component key); an unknown key is 404', async () => {
    const o = await tenantWithApp(gw.url);
    const d = await addDashboard(o, 'Kartu', { conf_dashboard: conf({ a: card('a'), b: card('b', { x: 1 }) }) });
    const r = await call(gw.url, dashboardsContract.removeComponent, { id: d.id, dashboard_id: 'a' }, tenantAuth(o));
    expect(r.body).toEqual({ response_result: 0, id: d.id, path: d.path });
    const got = (await call(gw.url, dashboardsContract.dashboard, { id: d.id }, tenantAuth(o))).body.data;
    expect(Object.keys(got.conf_dashboard.dashboard)).toEqual(['b']);
    expect(
      (await call(gw.url, dashboardsContract.removeComponent, { id: d.id, dashboard_id: 'a' }, tenantAuth(o))).status,
    ).toBe(404);
    expect(
      (await call(gw.url, dashboardsContract.removeComponent, { id: d.id }, tenantAuth(o))).body.response_result,
    ).toBe(-10);
  });
});

describe('GET nav/device/devices, nav/device/sensors, nav/tag/list', () => {
  it('answers the device → sensor → config → param → subparam tree from the registry and the stored series', async () => {
    const o = await tenantWithApp(gw.url);
    const auth = tenantAuth(o);
    expect(
      (await call(gw.url, tagsContract.add, { name: 'Lokasi', prefix: 'lokasi', category: 4 }, auth)).body
        .response_result,
    ).toBe(0);
    const meter = await addDevice(gw.url, auth, 'dummy', {
      name: 'Meter',
      sensors: {
        pm: { data: { voltage: { r: 'number', s: 'number' }, energy: 'number' }, config: { interval: 'number' } },
      },
      tags: { lokasi: ['gudang'] },
    });
    const pump = await addDevice(gw.url, auth, 'dummy', {
      name: 'Pompa',
      sensors: [{ sensor: 'relay', configtype: 'command', param: 'out' }],
    });
    // a series telemetry stored without the device declaring it, and a state the pump reported
    await gw.app.store.exec(
      sql`INSERT INTO telemetry_series (app_id, device_id, sensor, configtype, param, subparam, datatype, created_at) VALUES (${o.appId}, ${meter.id}, 'env', 'data', 'temp', '', 'number', ${Date.now()})`,
    );
    await gw.app.store.exec(
      sql`INSERT INTO device_states (device_id, app_id, key, value, initial_ts, latest_ts) VALUES (${pump.id}, ${o.appId}, 'POWER', '"ON"', 1, 1)`,
    );

    const all = await call(gw.url, dashboardsContract.devices, {}, auth);
    expect(all.body.devices).toEqual({
      [meter.id]: {
        pm: { data: { voltage: { r: 'number', s: 'number' }, energy: 'number' }, config: { interval: 'number' } },
        env: { data: { temp: 'number' } },
      },
      [pump.id]: { relay: { command: { out: null } }, [STATE_SENSOR]: { [STATE_CONFIG]: { POWER: null } } },
    });
    expect(all.body.devices_label).toEqual({ [meter.id]: 'Meter', [pump.id]: 'Pompa' });
    expect(all.body.devices_serial).toEqual({ [meter.id]: meter.serial_number, [pump.id]: pump.serial_number });

    const config = await call(gw.url, dashboardsContract.devices, { config: 'true' }, auth);
    // a device state is a command target too (a toggle switches the POWER it shows)
    expect(config.body.devices).toEqual({
      [meter.id]: { pm: { config: { interval: 'number' } } },
      [pump.id]: { relay: { command: { out: null } }, [STATE_SENSOR]: { [STATE_CONFIG]: { POWER: null } } },
    });

    const tagged = await call(gw.url, dashboardsContract.devices, { tags: 'lokasi:gudang' }, auth);
    expect(Object.keys(tagged.body.devices)).toEqual([String(meter.id)]);
    expect(
      Object.keys((await call(gw.url, dashboardsContract.devices, { tags: 'gudang' }, auth)).body.devices),
    ).toEqual([String(meter.id)]);
    expect((await call(gw.url, dashboardsContract.devices, { tags: 'lokasi:kantor' }, auth)).body.devices).toEqual({});

    const sensors = await call(gw.url, dashboardsContract.sensors, {}, auth);
    expect(Object.keys(sensors.body.sensors).sort()).toEqual([STATE_SENSOR, 'env', 'pm', 'relay'].sort());
    expect((await call(gw.url, dashboardsContract.tags, {}, auth)).body.tags).toEqual(['lokasi:gudang']);

    // another application sees none of it
    const other = await tenantWithApp(gw.url);
    expect((await call(gw.url, dashboardsContract.devices, {}, tenantAuth(other))).body).toEqual({
      response_result: 0,
      devices: {},
      devices_label: {},
      devices_serial: {},
    });
  });

  it("reads the datatype form of a declared object param as its subparams, never 'datatype' or 'subparams' (issue 28)", async () => {
    const o = await tenantWithApp(gw.url);
    const auth = tenantAuth(o);
    const d = await addDevice(gw.url, auth, 'dummy', {
      name: 'Panel',
      sensors: {
        pm: {
          data: {
            phase: { datatype: 'object', subparams: { r: 'number', s: 'number' } },
            energy: { datatype: 'number' },
            sample: { a: 1 },
          },
        },
      },
    });
    const listed = await addDevice(gw.url, auth, 'dummy', {
      name: 'Daftar',
      sensors: [{ sensor: 'pm', configtype: 'data', param: 'arus', subparam_datatypes: { r: 'number' } }],
    });
    const tree = (await call(gw.url, dashboardsContract.devices, {}, auth)).body.devices;
    expect(tree[d.id]).toEqual({
      pm: { data: { phase: { r: 'number', s: 'number' }, energy: 'number', sample: { a: null } } },
    });
    expect(tree[listed.id]).toEqual({ pm: { data: { arus: { r: 'number' } } } });
  });

  it("keeps a device's names such as __proto__ as plain keys of the tree, never a way into Object.prototype", async () => {
    const o = await tenantWithApp(gw.url);
    const auth = tenantAuth(o);
    const d = await addDevice(gw.url, auth, 'dummy', {
      name: 'Nakal',
      sensors: { pm: { data: { energy: 'number' } } },
    });
    // written straight into storage: whatever the registry's validation refuses today, the tree must not trust it
    await gw.app.store.exec(
      sql`UPDATE devices SET sensors = ${'{"__proto__":{"data":{"polluted":"number"}},"pm":{"__proto__":{"x":"number"}}}'} WHERE id = ${d.id}`,
    );
    await gw.app.store.exec(
      sql`INSERT INTO telemetry_series (app_id, device_id, sensor, configtype, param, subparam, datatype, created_at) VALUES (${o.appId}, ${d.id}, 'env', '__proto__', 'constructor', 'polluted', 'number', ${Date.now()})`,
    );
    for (const c of [dashboardsContract.devices, dashboardsContract.sensors]) {
      const r = await call(gw.url, c, {}, auth);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const tree = (await call(gw.url, dashboardsContract.devices, {}, auth)).body.devices[d.id] as Record<
      string,
      unknown
    >;
    expect(Object.keys(tree).sort()).toEqual(['__proto__', 'env', 'pm']);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('data');
    expect(Object.prototype).not.toHaveProperty('x');
    expect(Object.prototype).not.toHaveProperty('constructor.polluted');
  });
});

describe('GET /fetch/web/d/{id}', () => {
  it('answers the dashboard for viewing', async () => {
    const o = await tenantWithApp(gw.url);
    const d = await addDashboard(o, 'Lihat', {
      conf_dashboard: conf({}, { type: 'custom_url', custom_url: 'https://contoh.id/panel' }),
    });
    const r = await call(gw.url, dashboardsContract.view, { id: d.id }, tenantAuth(o));
    expect(r.body.data).toMatchObject({
      id: d.id,
      label: 'Lihat',
      path: d.path,
      conf_dashboard: { type: 'custom_url', custom_url: 'https://contoh.id/panel' },
    });
  });

  it('lets an application user view a dashboard their role grants as navigation, and nothing else', async () => {
    const o = await tenantWithApp(gw.url);
    const granted = await addDashboard(o, 'Diberikan');
    const child = await addDashboard(o, 'Turunan', { parent: granted.id });
    const hidden = await addDashboard(o, 'Tersembunyi');
    const m = await memberWithRole(gw.url, o, { navs: [granted.id], descendant: true });
    const auth = { member: m.member, domain: m.domain };
    expect((await call(gw.url, dashboardsContract.view, { id: granted.id }, auth)).body.data.label).toBe('Diberikan');
    expect((await call(gw.url, dashboardsContract.view, { id: child.id }, auth)).status).toBe(200);
    const refused = await call(gw.url, dashboardsContract.view, { id: hidden.id }, auth);
    expect({ status: refused.status, code: refused.body.response_result }).toEqual({ status: 403, code: -13 });
    // _dashboard_manage_ ("Kelola Dasboard") manages the granted dashboards: it opens no other (issue 23 item 3)
    const manager = await memberWithRole(gw.url, o, { sys_navs: ['_dashboard_manage_'], navs: [granted.id] });
    expect(
      (await call(gw.url, dashboardsContract.view, { id: hidden.id }, { member: manager.member, domain: o.domain }))
        .status,
    ).toBe(403);
    expect(
      (await call(gw.url, dashboardsContract.view, { id: granted.id }, { member: manager.member, domain: o.domain }))
        .status,
    ).toBe(200);
  });
});

describe('who may call', () => {
  const everyCall = (id: number) =>
    [
      [dashboardsContract.get, { id }],
      [dashboardsContract.dashboard, { id }],
      [dashboardsContract.listNin, { id }],
      [dashboardsContract.add, { label: 'X', conf_dashboard: conf() }],
      [dashboardsContract.edit, { id, conf_dashboard: conf() }],
      [dashboardsContract.remove, { id }],
      [dashboardsContract.removeComponent, { id, dashboard_id: 'c1' }],
      [dashboardsContract.devices, {}],
      [dashboardsContract.sensors, {}],
      [dashboardsContract.tags, {}],
      [dashboardsContract.view, { id }],
    ] as const;

  it('answers 401 without credentials on every call', async () => {
    const o = await tenantWithApp(gw.url);
    for (const [def, input] of everyCall(1)) {
      const r = await call(gw.url, def, input, { domain: o.domain });
      expect({ path: def.path, status: r.status }).toEqual({ path: def.path, status: 401 });
    }
  });

  it("answers 404 for another tenant's dashboard id on every call that takes one", async () => {
    const o = await tenantWithApp(gw.url);
    const other = await tenantWithApp(gw.url);
    const foreign = await addDashboard(other, 'Milik Lain', { conf_dashboard: conf({ c1: card('c1') }) });
    for (const [def, input] of everyCall(foreign.id)) {
      if (!('id' in input)) continue;
      const r = await call(gw.url, def, input, tenantAuth(o));
      expect({ path: def.path, status: r.status, code: r.body.response_result }).toEqual({
        path: def.path,
        status: 404,
        code: -11,
      });
    }
    // untouched
    expect(
      (await call(gw.url, dashboardsContract.get, { id: foreign.id }, tenantAuth(other))).body.data.conf_dashboard
        .dashboard.c1,
    ).toBeDefined();
  });

  it('answers 403 -13 on writes and editor reads to a user without _dashboard_manage_; the manager passes', async () => {
    const o = await tenantWithApp(gw.url);
    const d = await addDashboard(o, 'Dijaga', { conf_dashboard: conf({ c1: card('c1') }) });
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_device_manage_', '_role_manage_'], navs: [d.id] });
    const auth = { member: m.member, domain: m.domain };
    for (const [def, input] of everyCall(d.id)) {
      if (def === dashboardsContract.view) continue;
      const r = await call(gw.url, def, input, auth);
      expect({ path: def.path, status: r.status, code: r.body.response_result }).toEqual({
        path: def.path,
        status: 403,
        code: -13,
      });
    }
    // the role manager still reads the navigation items for the role wizard
    expect((await call(gw.url, navsContract.list, {}, auth)).status).toBe(200);

    const manager = await memberWithRole(gw.url, o, { sys_navs: ['_dashboard_manage_'], navs: [d.id] });
    const mAuth = { member: manager.member, domain: o.domain };
    const added = await call(gw.url, dashboardsContract.add, { label: 'Dari Pengguna', conf_dashboard: conf() }, mAuth);
    expect(added.body).toMatchObject({ response_result: 0, path: 'dari-pengguna' });
    expect(
      (await call(gw.url, dashboardsContract.removeComponent, { id: d.id, dashboard_id: 'c1' }, mAuth)).body
        .response_result,
    ).toBe(0);
    expect((await call(gw.url, dashboardsContract.remove, { id: added.body.id }, mAuth)).body.response_result).toBe(0);
  });
});
