// LoRa network servers (spec 03 sections 2.11, 3): list with MAC, name and server; add/edit/remove of our design.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T, loraContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, memberWithRole, tenantWithApp } from './fixtures.js';

let gw: Running;
let owner: Awaited<ReturnType<typeof tenantWithApp>>;
let auth: { tenant: { id: number; token: string }; domain: string };
beforeAll(async () => {
  gw = await startGateway();
  owner = await tenantWithApp(gw.url);
  auth = { tenant: owner.tenant, domain: owner.domain };
});
afterAll(async () => gw.stop());

describe('LoRa servers', () => {
  it('adds with the MAC normalised, lists (default 10) and searches', async () => {
    const r = await call(
      gw.url,
      loraContract.add,
      { mac: 'a1b2c3d4e5f6', name: 'Gerbang Utara', server: 'eu1.cloud.thethings.network' },
      auth,
    );
    expect(r.body).toMatchObject({
      response_result: 0,
      data: { mac: 'A1:B2:C3:D4:E5:F6', name: 'Gerbang Utara', server: 'eu1.cloud.thethings.network' },
    });
    await call(
      gw.url,
      loraContract.add,
      { mac: '00-11-22-33-44-55-66-77', name: 'Gerbang Selatan', server: 'chirpstack:1700' },
      auth,
    );
    const list = await call(gw.url, loraContract.list, {}, auth);
    expect(list.body).toMatchObject({ total: 2, size: 10 });
    expect(list.body.data.map((s: { mac: string }) => s.mac)).toEqual(['A1:B2:C3:D4:E5:F6', '00:11:22:33:44:55:66:77']);
    expect((await call(gw.url, loraContract.list, { search: 'selatan' }, auth)).body.total).toBe(1);
  });
  it.each([
    [{ mac: 'zz:zz' }, 'mac', T.lora.serverMacInvalid],
    [{ name: '' }, 'name', T.common.required],
    [{ name: 'n'.repeat(33) }, 'name', T.common.max(32)],
    [{ server: '' }, 'server', T.common.required],
  ])('answers -10 for %j', async (over, path, message) => {
    const r = await call(
      gw.url,
      loraContract.add,
      { mac: '02:00:00:00:00:01', name: 'Gerbang', server: 'x', ...over },
      auth,
    );
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors[0]).toEqual({ path, message });
  });
  it('answers -12 for a MAC already in the application', async () => {
    await call(gw.url, loraContract.add, { mac: '02:00:00:00:00:02', name: 'A', server: 'x' }, auth);
    expect(
      (await call(gw.url, loraContract.add, { mac: '020000000002', name: 'B', server: 'y' }, auth)).body,
    ).toMatchObject({ response_result: -12, message: T.lora.serverMacTaken });
  });
  it('edits, and removes only while no device uses the server', async () => {
    const s = (await call(gw.url, loraContract.add, { mac: '02:00:00:00:00:03', name: 'Lama', server: 'x' }, auth)).body
      .data;
    expect(
      (await call(gw.url, loraContract.edit, { id: s.id, mac: s.mac, name: 'Baru', server: 'chirpstack:1700' }, auth))
        .body.data,
    ).toMatchObject({ name: 'Baru', server: 'chirpstack:1700' });
    expect((await call(gw.url, loraContract.get, { id: s.id }, auth)).body.data.name).toBe('Baru');
    const d = await addDevice(gw.url, auth, 'lora', {
      dev_eui: '0102030405060708',
      otaa_key: 'B'.repeat(32),
      network_server_id: s.id,
    });
    expect((await call(gw.url, loraContract.remove, { id: s.id }, auth)).body).toMatchObject({
      response_result: -12,
      message: T.lora.serverInUse,
    });
    const { deviceFamilyCalls } = await import('@sentra/contracts');
    await call(gw.url, deviceFamilyCalls.lora.remove, { id: d.id }, auth);
    expect((await call(gw.url, loraContract.remove, { id: s.id }, auth)).body.response_result).toBe(0);
    expect((await call(gw.url, loraContract.get, { id: s.id }, auth)).status).toBe(404);
  });
  it("answers 404 for another tenant's server and 401 without credentials", async () => {
    const s = (await call(gw.url, loraContract.add, { mac: '02:00:00:00:00:04', name: 'Milik A', server: 'x' }, auth))
      .body.data;
    const other = await tenantWithApp(gw.url);
    const o = { tenant: other.tenant, domain: other.domain };
    expect((await call(gw.url, loraContract.get, { id: s.id }, o)).status).toBe(404);
    expect(
      (await call(gw.url, loraContract.edit, { id: s.id, mac: s.mac, name: 'Curian', server: 'x' }, o)).status,
    ).toBe(404);
    expect((await call(gw.url, loraContract.remove, { id: s.id }, o)).status).toBe(404);
    expect((await call(gw.url, loraContract.list, {}, o)).body.total).toBe(0);
    expect((await call(gw.url, loraContract.list, {}, { domain: owner.domain })).status).toBe(401);
  });
  it('lets a _device_list_ user read but answers 403 on writes', async () => {
    const viewer = await memberWithRole(gw.url, owner, { sys_navs: ['_device_list_'] });
    const v = { member: viewer.member, domain: owner.domain };
    expect((await call(gw.url, loraContract.list, {}, v)).status).toBe(200);
    expect((await call(gw.url, loraContract.add, { mac: '02:00:00:00:00:05', name: 'X', server: 'x' }, v)).status).toBe(
      403,
    );
    expect((await call(gw.url, loraContract.remove, { id: 1 }, v)).status).toBe(403);
  });
});
