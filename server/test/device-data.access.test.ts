// Every device data, state and command call: 401 without credentials, 404 for another application's device, 403 for
// a role without the device keys, and writes refused to a role that may only list devices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandsContract, deviceDataContract, statesContract, type CallDef } from '@sentra/contracts';
import { call, type Running } from './harness.js';
import { addDevice, memberWithRole, tenantWithApp } from './fixtures.js';

let gw: Running;
let owner: Awaited<ReturnType<typeof tenantWithApp>>;
let stranger: Awaited<ReturnType<typeof tenantWithApp>>;
let deviceId: number;
beforeAll(async () => {
  gw = await (await import('./harness.js')).startGateway();
  owner = await tenantWithApp(gw.url);
  stranger = await tenantWithApp(gw.url);
  deviceId = (await addDevice(gw.url, { tenant: owner.tenant, domain: owner.domain }, 'mqtt')).id;
});
afterAll(async () => gw.stop());

const calls: [string, CallDef][] = [
  ...Object.entries(deviceDataContract),
  ...Object.entries(statesContract),
  ...Object.entries(commandsContract),
];
const inputOf = (def: CallDef) => ({
  id: deviceId,
  device_id: deviceId,
  key: 'env.data.t',
  sensor: 'env',
  configtype: 'data',
  param: 't',
  ndata: 5,
  n: 5,
  start: 0,
  end: 1000,
  policies: {},
  tags: {},
  value: 1,
});
const isWrite = (def: CallDef) => def.access?.navs?.length === 1;

describe('access to the device data, state and command calls', () => {
  it.each(calls)(
    '%s: 401 without credentials, 404 for another application, 403 without device keys',
    async (_name, def) => {
      expect((await call(gw.url, def, inputOf(def), { domain: owner.domain })).status).toBe(401);
      const foreign = await call(gw.url, def, inputOf(def), { tenant: stranger.tenant, domain: stranger.domain });
      expect([foreign.status, foreign.body.response_result]).toEqual([404, -11]);
      // the owner's session inside another tenant's application is 404 too
      expect((await call(gw.url, def, inputOf(def), { tenant: owner.tenant, domain: stranger.domain })).status).toBe(
        404,
      );
      const nobody = await memberWithRole(gw.url, owner, { sys_navs: ['_user_manage_'] });
      expect((await call(gw.url, def, inputOf(def), { member: nobody.member, domain: owner.domain })).status).toBe(403);
      const reader = await memberWithRole(gw.url, owner, { sys_navs: ['_device_list_'] });
      const asReader = await call(gw.url, def, inputOf(def), { member: reader.member, domain: owner.domain });
      if (isWrite(def)) expect(asReader.status).toBe(403);
      else expect(asReader.status).not.toBe(403);
    },
  );
});
