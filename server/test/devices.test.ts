// Device registry calls (spec 03 sections 2.1–2.4, 2.7, 3, 5, 7, 8): adds of every family, validation, get, edit,
// sensors, remove, the filtered list, tags on devices, Generate Dashboard, and tenant isolation and roles.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T, deviceFamilyCalls, devicesContract, loraContract, tagsContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, memberWithRole, tenantWithApp, unique } from './fixtures.js';

let gw: Running;
let owner: Awaited<ReturnType<typeof tenantWithApp>>;
let auth: { tenant: { id: number; token: string }; domain: string };
beforeAll(async () => {
  gw = await startGateway();
  owner = await tenantWithApp(gw.url);
  auth = { tenant: owner.tenant, domain: owner.domain };
});
afterAll(async () => gw.stop());

const dummy = deviceFamilyCalls.dummy;

describe('adding a device', () => {
  it('adds a dummy device with the defaults of section 3', async () => {
    const r = await call(
      gw.url,
      dummy.adds.dummy!,
      { serial_number: 'AAAA-BBBB-1111-2222', name: 'Sensor Suhu', sensors: '{"suhu":{"data":{"celsius":0}}}' },
      auth,
    );
    expect(r.body).toMatchObject({
      response_result: 0,
      data: {
        name: 'Sensor Suhu',
        serial_number: 'AAAA-BBBB-1111-2222',
        category: 1,
        category_text: 'Dummy',
        deviceType: 'DUMMY',
        firmware_version: '1.0',
        online: false,
        last_online_ts: null,
        last_offline_ts: null,
        disabled: false,
        tags: {},
        sensors: { suhu: { data: { celsius: 0 } } },
      },
    });
  });
  it.each([
    ['serial_number', { serial_number: '' }, T.devices.serialRequired],
    ['name', { name: '' }, T.devices.nameRequired],
    ['name', { name: 'n'.repeat(33) }, T.common.max(32)],
    ['description', { description: 'd'.repeat(129) }, T.common.max(128)],
    ['latitude', { latitude: 90.5 }, T.devices.serverLatitude],
    ['longitude', { longitude: -181 }, T.devices.serverLongitude],
    ['sensors', { sensors: '{bukan json' }, T.devices.sensorsJson],
    ['sensors', { sensors: '42' }, T.devices.sensorsJson],
  ])('answers -10 on %s (%j) with "%s"', async (path, over, message) => {
    const r = await call(gw.url, dummy.adds.dummy!, { serial_number: unique('SN'), name: 'Alat', ...over }, auth);
    expect(r.status).toBe(400);
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors[0]).toEqual({ path, message });
  });
  it('answers -12 when the serial number is already registered in the application, but not in another one', async () => {
    const serial = unique('DUP-');
    await addDevice(gw.url, auth, 'dummy', { serial_number: serial });
    const again = await call(gw.url, dummy.adds.dummy!, { serial_number: serial, name: 'Kembar' }, auth);
    expect(again.body).toMatchObject({ response_result: -12, message: T.devices.serverSerialTaken });
    const other = await tenantWithApp(gw.url);
    expect(
      (
        await call(
          gw.url,
          dummy.adds.dummy!,
          { serial_number: serial, name: 'Lain' },
          { tenant: other.tenant, domain: other.domain },
        )
      ).body.response_result,
    ).toBe(0);
  });
  it('generates read-only broker credentials for an MQTT device, ignoring any sent; the password shown once', async () => {
    const d = await addDevice(gw.url, auth, 'mqtt', { store_mqtt_username: 'pilihan-saya', store_mqtt_password: 'x' });
    expect(d.store_mqtt_url).toBe(`mqtt://127.0.0.1:${gw.mqttPort}`);
    expect(d.store_mqtt_username).toMatch(/^mqtt_[0-9a-f]{12}$/);
    expect(d.store_mqtt_password.length).toBeGreaterThanOrEqual(20);
    expect(d.store_mqtt_topic).toBe(`d/${d.id}`);
    expect(d.store_mqtt_details).toMatchObject({ data_topic: `d/${d.id}/data`, command_topic: `d/${d.id}/cmd` });
    const got = await call(gw.url, deviceFamilyCalls.mqtt.get, { id: d.id }, auth);
    // the password is shown once, by the add: only its hash is kept (gateway-secret.test.ts)
    expect(got.body.data).toMatchObject({ store_mqtt_username: d.store_mqtt_username, store_mqtt_password: '' });
  });
  it('generates username, password and a Tasmota topic with the standard full topic', async () => {
    const d = await addDevice(gw.url, auth, 'tasmota');
    expect(d).toMatchObject({
      category: 9,
      deviceType: 'TASMOTA_SONOFF_BASIC',
      full_topic: '%prefix%/%topic%/',
      device_mqtt_url: `mqtt://127.0.0.1:${gw.mqttPort}`,
    });
    expect(d.topic).toMatch(/^sentra_[0-9a-f]{12}$/);
    expect(d.username).toMatch(/^tasmota_/);
  });
  it("adds a LoRa device on one of the application's LoRa servers; another application's server is 404", async () => {
    const ns = await call(
      gw.url,
      loraContract.add,
      { mac: 'aa-bb-cc-dd-ee-ff', name: 'Gerbang', server: 'lora.contoh.id:1700' },
      auth,
    );
    const d = await addDevice(gw.url, auth, 'lora', {
      dev_eui: '70b3d57ed0000001',
      otaa_key: '0'.repeat(32),
      network_server_id: ns.body.data.id,
    });
    expect(d).toMatchObject({
      category: 3,
      dev_eui: '70B3D57ED0000001',
      network_server_id: ns.body.data.id,
      network_server_name: 'Gerbang',
      network_server_mac: 'AA:BB:CC:DD:EE:FF',
    });
    const dup = await call(
      gw.url,
      deviceFamilyCalls.lora.adds.lora!,
      {
        serial_number: unique('L'),
        name: 'Dua',
        dev_eui: '70B3D57ED0000001',
        otaa_key: '0'.repeat(32),
        network_server_id: ns.body.data.id,
      },
      auth,
    );
    expect(dup.body).toMatchObject({ response_result: -12, message: T.devices.serverDevEuiTaken });
    const other = await tenantWithApp(gw.url);
    const foreign = await call(
      gw.url,
      deviceFamilyCalls.lora.adds.lora!,
      {
        serial_number: 'X1',
        name: 'Asing',
        dev_eui: '70B3D57ED0000002',
        otaa_key: '0'.repeat(32),
        network_server_id: ns.body.data.id,
      },
      { tenant: other.tenant, domain: other.domain },
    );
    expect(foreign.status).toBe(404);
    const bad = await call(
      gw.url,
      deviceFamilyCalls.lora.adds.lora!,
      {
        serial_number: 'X2',
        name: 'Salah',
        dev_eui: '123',
        otaa_key: '0'.repeat(32),
        network_server_id: ns.body.data.id,
      },
      auth,
    );
    expect(bad.body.errors[0].path).toBe('dev_eui');
  });
  it("adds an Emma device from the plugin cloud's list, and refuses an unknown plugin", async () => {
    const list = await call(gw.url, devicesContract.emmaPlugins, {}, auth);
    expect(list.body.plugins.length).toBeGreaterThan(0);
    const p = list.body.plugins[0];
    const d = await addDevice(gw.url, auth, 'emma', {
      emma_plugin_key: p.emma_plugin_key,
      emma_application_plugin_id: p.emma_application_plugin_id,
    });
    expect(d).toMatchObject({
      category: 11,
      emma_plugin_definition: { name: p.emma_plugin_name },
      emma_plugin_application_id: p.emma_application_plugin_id,
      emma_plugin_details: '{}',
    });
    const bad = await call(
      gw.url,
      deviceFamilyCalls.emma.adds.emma!,
      { serial_number: unique('E'), name: 'Emma', emma_plugin_key: 'tidak.ada', emma_application_plugin_id: 'x' },
      auth,
    );
    expect(bad.body).toMatchObject({ response_result: -10, message: T.devices.serverUnknownPlugin });
  });
  it('adds an Imou camera with both ids required', async () => {
    const d = await addDevice(gw.url, auth, 'imou', { imou_device_id: 'CAM123', imou_application_id: 'lc01' });
    expect(d).toMatchObject({
      category: 12,
      deviceType: 'IMOU_CAMERA',
      imou_device_id: 'CAM123',
      imou_application_id: 'lc01',
    });
    const r = await call(
      gw.url,
      deviceFamilyCalls.imou.adds.imou!,
      { serial_number: unique('I'), name: 'Cam', imou_device_id: 'CAM1' },
      auth,
    );
    expect(r.body.errors[0].path).toBe('imou_application_id');
  });
  it('answers "Dev UID tidak boleh kosong" for a serial gateway without UID', async () => {
    for (const key of ['zlan', 'usrIot', 'bivocom', 'friendcom', 'sentraGateway'] as const) {
      const calls = deviceFamilyCalls[key];
      const r = await call(
        gw.url,
        Object.values(calls.adds)[0]!,
        { serial_number: unique('G'), name: 'Gateway', dev_uid: '' },
        auth,
      );
      expect(r.body.errors[0]).toEqual({ path: 'dev_uid', message: T.devices.uidRequired });
    }
  });
  it('refuses a serial gateway whose UID has never been heard (-7)', async () => {
    const r = await call(
      gw.url,
      deviceFamilyCalls.zlan.adds.zlan!,
      { serial_number: unique('Z'), name: 'ZLAN', dev_uid: unique('ZL') },
      auth,
    );
    expect(r.body).toMatchObject({ response_result: -7, message: T.devices.serverUidNotHeard });
  });
});

describe('reading, editing and removing a device', () => {
  it('answers device/get/id with id, category, name, serial_number, online, sensors and tags', async () => {
    const d = await addDevice(gw.url, auth, 'dummy', { sensors: [{ sensor: 's1', param: 'p' }] });
    const r = await call(gw.url, devicesContract.get, { id: d.id }, auth);
    expect(r.body.data).toMatchObject({
      id: d.id,
      category: 1,
      name: d.name,
      serial_number: d.serial_number,
      online: false,
      sensors: [{ sensor: 's1', param: 'p' }],
      tags: {},
    });
  });
  it('answers 404 for a family get of a device of another family', async () => {
    const d = await addDevice(gw.url, auth, 'dummy');
    expect((await call(gw.url, deviceFamilyCalls.mqtt.get, { id: d.id }, auth)).status).toBe(404);
    expect((await call(gw.url, deviceFamilyCalls.dummy.get, { id: d.id }, auth)).body.data.id).toBe(d.id);
  });
  it('edits name, description, latitude and longitude; an empty latitude clears it', async () => {
    const d = await addDevice(gw.url, auth, 'dummy', { latitude: -6.2, longitude: 106.8 });
    const r = await call(
      gw.url,
      devicesContract.edit,
      { id: d.id, name: 'Nama Baru', description: 'Lantai 2', latitude: '', longitude: 107 },
      auth,
    );
    expect(r.body.data).toMatchObject({ name: 'Nama Baru', description: 'Lantai 2', latitude: null, longitude: 107 });
    expect((await call(gw.url, devicesContract.edit, { id: d.id, latitude: 91 }, auth)).body.errors[0]).toEqual({
      path: 'latitude',
      message: T.devices.serverLatitude,
    });
    expect((await call(gw.url, devicesContract.edit, { id: d.id, label: 'Label' }, auth)).body.data.label).toBe(
      'Label',
    );
  });
  it("replaces the sensor configuration through the family's edit/sensors call only", async () => {
    const d = await addDevice(gw.url, auth, 'mqtt');
    const r = await call(gw.url, deviceFamilyCalls.mqtt.sensors, { id: d.id, sensors: '[{"sensor":"a"}]' }, auth);
    expect(r.body.data.sensors).toEqual([{ sensor: 'a' }]);
    expect((await call(gw.url, deviceFamilyCalls.dummy.sensors, { id: d.id, sensors: '{}' }, auth)).status).toBe(404);
    expect(
      (await call(gw.url, deviceFamilyCalls.mqtt.sensors, { id: d.id, sensors: 'x' }, auth)).body.errors[0].message,
    ).toBe(T.devices.sensorsJson);
  });
  it("removes a device through its family's remove call", async () => {
    const d = await addDevice(gw.url, auth, 'tasmota');
    expect((await call(gw.url, deviceFamilyCalls.dummy.remove, { id: d.id }, auth)).status).toBe(404);
    expect((await call(gw.url, deviceFamilyCalls.tasmota.remove, { id: d.id }, auth)).body.response_result).toBe(0);
    expect((await call(gw.url, devicesContract.get, { id: d.id }, auth)).status).toBe(404);
  });
});

describe('device tags', () => {
  it('keeps tags that follow their category and refuses the rest with the section 5 messages', async () => {
    await call(gw.url, tagsContract.add, { name: 'Lokasi', category: 1 }, auth);
    await call(gw.url, tagsContract.addDefinition, { name: 'Gedung A', prefix: 'lokasi' }, auth);
    await call(gw.url, tagsContract.add, { name: 'Label Bebas', prefix: 'bebas', category: 4 }, auth);
    const d = await addDevice(gw.url, auth, 'dummy', {
      tags: { lokasi: ['Gedung A'], bebas: ['pompa air', 'lantai_2'] },
    });
    expect(d.tags).toEqual({ lokasi: ['gedung_a'], bebas: ['pompa air', 'lantai_2'] });
    const cases: Array<[Record<string, string[]>, string]> = [
      [{ bebas: ['1pompa'] }, T.tags.startsWithDigit],
      [{ bebas: ['a'.repeat(17)] }, T.tags.maxChars],
      [{ bebas: ['Pompa'] }, T.tags.noCapitals],
      [{ bebas: ['a', 'b', 'c', 'd'] }, T.tags.serverMaxThree],
      [{ bebas: ['a', 'a'] }, T.tags.serverUnique],
      [{ lokasi: ['gedung_z'] }, T.tags.serverUnknownOption],
      [{ tidakada: ['x'] }, T.tags.serverUnknownCategory],
    ];
    for (const [tags, message] of cases) {
      const r = await call(gw.url, devicesContract.edit, { id: d.id, tags }, auth);
      expect(r.body.response_result, JSON.stringify(tags)).toBe(-10);
      expect(r.body.errors[0].message).toBe(message);
    }
    expect((await call(gw.url, devicesContract.edit, { id: d.id, tags: {} }, auth)).body.data.tags).toEqual({});
  });
});

describe('GET device/list/web/filter', () => {
  let app: Awaited<ReturnType<typeof tenantWithApp>>;
  let a: { tenant: { id: number; token: string }; domain: string };
  const ids: number[] = [];
  beforeAll(async () => {
    app = await tenantWithApp(gw.url);
    a = { tenant: app.tenant, domain: app.domain };
    for (let i = 1; i <= 30; i++)
      ids.push(
        (
          await addDevice(gw.url, a, i % 3 === 0 ? 'mqtt' : 'dummy', {
            name: `Pompa ${i}`,
            serial_number: `SN-POMPA-${String(i).padStart(3, '0')}`,
          })
        ).id,
      );
  });
  it('pages newest first with the default size 25 and the total', async () => {
    const r = await call(gw.url, devicesContract.filter, {}, a);
    expect(r.body).toMatchObject({ response_result: 0, total: 30, page: 0, size: 25 });
    expect(r.body.devices.map((d: { id: number }) => d.id)).toEqual([...ids].reverse().slice(0, 25));
    const p2 = await call(gw.url, devicesContract.filter, { page: 1, size: 25 }, a);
    expect(p2.body.devices).toHaveLength(5);
  });
  it('searches name, serial substrings and the id', async () => {
    expect((await call(gw.url, devicesContract.filter, { search: 'pompa 1' }, a)).body.total).toBe(11);
    expect(
      (await call(gw.url, devicesContract.filter, { search: 'POMPA-007' }, a)).body.devices.map(
        (d: { id: number }) => d.id,
      ),
    ).toEqual([ids[6]]);
    expect(
      (await call(gw.url, devicesContract.filter, { search: String(ids[4]) }, a)).body.devices.map(
        (d: { id: number }) => d.id,
      ),
    ).toContain(ids[4]);
    expect((await call(gw.url, devicesContract.filter, { search: 'Po' }, a)).body.total).toBe(30);
    expect((await call(gw.url, devicesContract.filter, { search: 'tidak-ada-"' }, a)).body.total).toBe(0);
  });
  it('filters by type and status', async () => {
    expect((await call(gw.url, devicesContract.filter, { category: 8 }, a)).body.total).toBe(10);
    expect((await call(gw.url, devicesContract.filter, { type: 'DUMMY' }, a)).body.total).toBe(20);
    expect((await call(gw.url, devicesContract.filter, { status: 'off' }, a)).body.total).toBe(30);
    expect((await call(gw.url, devicesContract.filter, { status: 'on' }, a)).body.total).toBe(0);
    expect((await call(gw.url, devicesContract.filter, { status: 'on,off' }, a)).body.total).toBe(30);
    expect((await call(gw.url, devicesContract.filter, { status: 'nyala' }, a)).body.response_result).toBe(-10);
  });
  it("never shows another application's devices", async () => {
    expect((await call(gw.url, devicesContract.filter, { search: 'POMPA' }, auth)).body.total).toBe(0);
  });
  it('filters by one tag prefix:value (issue 28), with the other filters, in this application only', async () => {
    await call(gw.url, tagsContract.add, { name: 'Lokasi', category: 1 }, a);
    await call(gw.url, tagsContract.addDefinition, { name: 'Gudang', prefix: 'lokasi' }, a);
    await call(gw.url, tagsContract.addDefinition, { name: 'Kantor', prefix: 'lokasi' }, a);
    await call(gw.url, tagsContract.add, { name: 'Catatan', category: 4 }, a);
    await call(gw.url, devicesContract.edit, { id: ids[0], tags: { lokasi: ['gudang'], catatan: ['pompa air'] } }, a);
    await call(gw.url, devicesContract.edit, { id: ids[2], tags: { lokasi: ['gudang'] } }, a);
    await call(gw.url, devicesContract.edit, { id: ids[3], tags: { lokasi: ['kantor'] } }, a);
    const found = async (q: Record<string, unknown>, as = a) =>
      (await call(gw.url, devicesContract.filter, q, as)).body.devices.map((d: { id: number }) => d.id).sort();
    expect(await found({ tag: 'lokasi:gudang' })).toEqual([ids[0], ids[2]].sort());
    expect(await found({ tag: 'catatan:pompa air' })).toEqual([ids[0]]);
    expect(await found({ tag: 'lokasi:gudang', type: 'DUMMY' })).toEqual([ids[0]]);
    expect(await found({ tag: 'gudang:lokasi' })).toEqual([]);
    expect(await found({ tag: 'lokasi:gudang' }, auth)).toEqual([]);
    expect((await call(gw.url, devicesContract.filter, { tag: 'tanpa-titik-dua' }, a)).body.response_result).toBe(-10);
    // a damaged tags column matches nothing and fails nothing
    await gw.app.store.exec(sql`update devices set tags = ${'{rusak'} where id = ${ids[5]!}`);
    expect(await found({ tag: 'lokasi:gudang' })).toEqual([ids[0], ids[2]].sort());
  });
});

describe('GET device/pick (every device picker, issue 38)', () => {
  let app: Awaited<ReturnType<typeof tenantWithApp>>;
  let a: { tenant: { id: number; token: string }; domain: string };
  const ids: number[] = [];
  const names = (r: { body: Record<string, any> }) => (r.body.devices as { name: string }[]).map((d) => d.name);
  beforeAll(async () => {
    app = await tenantWithApp(gw.url);
    a = { tenant: app.tenant, domain: app.domain };
    // more than one page of the old pickers (100), the wanted one in the middle, a name holding LIKE's wildcards
    for (let i = 1; i <= 120; i++)
      ids.push(
        (
          await addDevice(gw.url, a, 'dummy', {
            name: i === 60 ? 'Panel Listrik 00060' : i === 61 ? 'Diskon 100%_A' : `Meter ${String(i).padStart(5, '0')}`,
            serial_number: `SN-PICK-${String(i).padStart(4, '0')}`,
          })
        ).id,
      );
  });
  it('finds a device from the middle of the list by a part of its name, its serial number or its id', async () => {
    const byName = await call(gw.url, devicesContract.pick, { search: 'listrik 0006' }, a);
    expect(byName.body).toMatchObject({ response_result: 0, total: 1, page: 0, size: 20 });
    expect(byName.body.devices[0]).toEqual({
      id: ids[59],
      name: 'Panel Listrik 00060',
      label: 'Panel Listrik 00060',
      serial_number: 'SN-PICK-0060',
      category: 1,
      deviceType: 'DUMMY',
      online: false,
    });
    expect(names(await call(gw.url, devicesContract.pick, { search: 'pick-0060' }, a))).toEqual([
      'Panel Listrik 00060',
    ]);
    // an exact id comes first, before the names and serials that merely contain its digits
    const byId = await call(gw.url, devicesContract.pick, { search: String(ids[59]) }, a);
    expect(byId.body.devices[0].id).toBe(ids[59]);
  });
  it('pages through the whole application, names starting with the text first, then by name', async () => {
    const first = await call(gw.url, devicesContract.pick, { size: 50 }, a);
    expect(first.body.total).toBe(120);
    expect(names(first).slice(0, 2)).toEqual(['Diskon 100%_A', 'Meter 00001']);
    const last = await call(gw.url, devicesContract.pick, { size: 50, page: 2 }, a);
    expect(last.body.devices).toHaveLength(20);
    expect(names(await call(gw.url, devicesContract.pick, { search: 'Pa' }, a))).toEqual(['Panel Listrik 00060']);
    const panel = names(await call(gw.url, devicesContract.pick, { search: 'rik 000' }, a));
    expect(panel).toEqual(['Panel Listrik 00060']);
    expect((await call(gw.url, devicesContract.pick, { size: 51 }, a)).body.response_result).toBe(-10);
  });
  it("takes LIKE's wildcards literally", async () => {
    expect(names(await call(gw.url, devicesContract.pick, { search: '%' }, a))).toEqual([]);
    expect(names(await call(gw.url, devicesContract.pick, { search: '_' }, a))).toEqual([]);
    expect(names(await call(gw.url, devicesContract.pick, { search: 'Di' }, a))).toEqual(['Diskon 100%_A']);
    expect(names(await call(gw.url, devicesContract.pick, { search: '100%_' }, a))).toEqual(['Diskon 100%_A']);
  });
  it('names the devices a picker holds (ids), and narrows to a card’s tags', async () => {
    const held = await call(gw.url, devicesContract.pick, { ids: `${ids[1]},${ids[0]}` }, a);
    expect(held.body.devices.map((d: { id: number }) => d.id)).toEqual([ids[0], ids[1]]);
    // as the console's client sends a list: a JSON array
    const asJson = await call(gw.url, devicesContract.pick, { ids: JSON.stringify([ids[2]]) }, a);
    expect(asJson.body.devices.map((d: { id: number }) => d.id)).toEqual([ids[2]]);
    await call(gw.url, tagsContract.add, { name: 'Zona', category: 2 }, a);
    await call(gw.url, devicesContract.edit, { id: ids[4], tags: { zona: ['utara'] } }, a);
    expect(names(await call(gw.url, devicesContract.pick, { tags: 'zona:utara' }, a))).toEqual(['Meter 00005']);
    expect(names(await call(gw.url, devicesContract.pick, { tags: 'utara,zona:selatan' }, a))).toEqual(['Meter 00005']);
    expect(names(await call(gw.url, devicesContract.pick, { tags: 'zona:selatan' }, a))).toEqual([]);
  });
  it("is scoped to the caller's application, and open to device readers and dashboard editors only", async () => {
    expect((await call(gw.url, devicesContract.pick, { search: 'Panel Listrik' }, auth)).body.total).toBe(0);
    expect((await call(gw.url, devicesContract.pick, { ids: String(ids[0]) }, auth)).body.total).toBe(0);
    for (const sys_navs of [['_device_list_'], ['_dashboard_manage_']] as const) {
      const m = await memberWithRole(gw.url, app, { sys_navs });
      const r = await call(
        gw.url,
        devicesContract.pick,
        { search: 'listrik' },
        { member: m.member, domain: app.domain },
      );
      expect(r.body.total).toBe(1);
    }
    const none = await memberWithRole(gw.url, app, { sys_navs: ['_task_list_'] });
    expect((await call(gw.url, devicesContract.pick, {}, { member: none.member, domain: app.domain })).status).toBe(
      403,
    );
  });
});

describe('POST application/nav/add/dum (Generate Dashboard)', () => {
  it('creates a version "2" dashboard with one LATEST card per sensor parameter', async () => {
    const d = await addDevice(gw.url, auth, 'dummy', { sensors: { suhu: { data: { celsius: 0, kelembapan: 0 } } } });
    const r = await call(gw.url, devicesContract.dummyDashboard, { name: 'Dashboard Suhu', device_id: d.id }, auth);
    expect(r.body).toMatchObject({ response_result: 0, data: { label: 'Dashboard Suhu', path: 'dashboard-suhu' } });
    const row = (await gw.app.store.one<{ conf_dashboard: string }>(
      sql`select conf_dashboard from dashboards where id = ${r.body.data.id as number}`,
    ))!;
    const conf = JSON.parse(row.conf_dashboard);
    expect(conf.version).toBe('2');
    expect(Object.values(conf.dashboard).map((c: any) => [c.cat, c.model.value.query, c.model.value.param])).toEqual([
      ['SINGLE_VALUE_CARD', 'LATEST', 'celsius'],
      ['SINGLE_VALUE_CARD', 'LATEST', 'kelembapan'],
    ]);
    // paths follow every dashboard's rule: from the label, unique, never with an underscore (a menu's system keys)
    expect(
      (await call(gw.url, devicesContract.dummyDashboard, { name: 'Dashboard Suhu', device_id: d.id }, auth)).body.data
        .path,
    ).toBe('dashboard-suhu-2');
  });
  it('answers 404 for a device that is not a dummy', async () => {
    const d = await addDevice(gw.url, auth, 'mqtt');
    expect((await call(gw.url, devicesContract.dummyDashboard, { name: 'X', device_id: d.id }, auth)).status).toBe(404);
  });
});

describe('who may call', () => {
  it('answers 401 without credentials on every device call', async () => {
    for (const def of [
      devicesContract.filter,
      devicesContract.get,
      devicesContract.edit,
      devicesContract.tokenGenerate,
      dummy.adds.dummy!,
      dummy.remove,
      deviceFamilyCalls.zlan.check!,
    ]) {
      const r = await call(gw.url, def, { id: 1 }, { domain: owner.domain });
      expect(r.status, def.path).toBe(401);
    }
  });
  it("answers 404 for another tenant's device ids", async () => {
    const d = await addDevice(gw.url, auth, 'mqtt');
    const other = await tenantWithApp(gw.url);
    const o = { tenant: other.tenant, domain: other.domain };
    expect((await call(gw.url, devicesContract.get, { id: d.id }, o)).status).toBe(404);
    expect((await call(gw.url, deviceFamilyCalls.mqtt.get, { id: d.id }, o)).status).toBe(404);
    expect((await call(gw.url, devicesContract.edit, { id: d.id, name: 'Curian' }, o)).status).toBe(404);
    expect((await call(gw.url, deviceFamilyCalls.mqtt.sensors, { id: d.id, sensors: '{}' }, o)).status).toBe(404);
    expect((await call(gw.url, deviceFamilyCalls.mqtt.remove, { id: d.id }, o)).status).toBe(404);
    expect((await call(gw.url, devicesContract.get, { id: d.id }, auth)).body.data.name).toBe(d.name);
  });
  it('lets a _device_list_ user read but answers 403 on every write', async () => {
    const d = await addDevice(gw.url, auth, 'dummy');
    const viewer = await memberWithRole(gw.url, owner, { sys_navs: ['_device_list_'] });
    const v = { member: viewer.member, domain: owner.domain };
    expect((await call(gw.url, devicesContract.filter, {}, v)).status).toBe(200);
    expect((await call(gw.url, devicesContract.get, { id: d.id }, v)).status).toBe(200);
    expect((await call(gw.url, dummy.get, { id: d.id }, v)).status).toBe(200);
    expect((await call(gw.url, dummy.adds.dummy!, { serial_number: unique('V'), name: 'Tidak Boleh' }, v)).status).toBe(
      403,
    );
    expect((await call(gw.url, devicesContract.edit, { id: d.id, name: 'Tidak' }, v)).status).toBe(403);
    expect((await call(gw.url, dummy.sensors, { id: d.id, sensors: '{}' }, v)).status).toBe(403);
    expect((await call(gw.url, dummy.remove, { id: d.id }, v)).status).toBe(403);
    expect((await call(gw.url, devicesContract.tokenGenerate, {}, v)).status).toBe(403);
    expect((await call(gw.url, deviceFamilyCalls.zlan.check!, { dev_uid: 'X' }, v)).status).toBe(403);
  });
  it('lets a _device_manage_ user add, and a user without device entries read nothing', async () => {
    const manager = await memberWithRole(gw.url, owner, { sys_navs: ['_device_manage_'] });
    await addDevice(gw.url, { member: manager.member, domain: owner.domain }, 'dummy');
    const none = await memberWithRole(gw.url, owner, { sys_navs: ['_task_list_'] });
    expect((await call(gw.url, devicesContract.filter, {}, { member: none.member, domain: owner.domain })).status).toBe(
      403,
    );
  });
});
