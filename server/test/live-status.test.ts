// Live device status and data over socket.io: the device list sees Nyala/Mati change when a device connects or goes
// silent, the data detail page sees a value arrive from an MQTT publish; other applications see nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Socket } from 'socket.io-client';
import { DEVICE_DATA_LIVE, DEVICE_STATUS_LIVE, DeviceDataPush, DeviceStatusPush, Header } from '@sentra/contracts';
import { type Running } from './harness.js';
import { addDevice, memberWithRole, mqttAttempt, tenantWithApp, unique } from './fixtures.js';
import { startDataGateway, type AppAuth, type Owner } from './device-data.kit.js';
import { ask, openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';

let gw: Running;
let auth: AppAuth;
let owner: Owner;
let clients: MqttClient[];
const sockets: Socket[] = [];
beforeAll(async () => {
  ({ gw, auth, owner, clients } = await startDataGateway());
});
afterEach(() => {
  clients.splice(0).forEach((c) => c.end(true));
  sockets.splice(0).forEach((s) => s.close());
});
afterAll(async () => gw.stop());

async function socketOf(headers: Record<string, string>) {
  const { socket, refusal } = await openSocket(gw.url, headers);
  if (!socket) throw new Error(`refused ${JSON.stringify(refusal)}`);
  sockets.push(socket);
  return socket;
}
const next = <T>(socket: Socket, event: string, ms = 3000) =>
  new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (p: T) => (clearTimeout(t), resolve(p)));
  });

describe('live device status (channel "devices")', () => {
  it('emits device.status when a device connects and when it leaves, to its application only', async () => {
    const socket = await socketOf(sessionAuth(owner, owner.domain));
    expect(await ask(socket, 'subscribe', { channel: DEVICE_STATUS_LIVE.channel, params: {} })).toEqual({
      response_result: 0,
      room: `devices.${owner.appId}`,
    });
    const stranger = await tenantWithApp(gw.url);
    const other = await socketOf(sessionAuth(stranger, stranger.domain));
    await ask(other, 'subscribe', { channel: DEVICE_STATUS_LIVE.channel, params: {} });
    const leaked: unknown[] = [];
    other.on(DEVICE_STATUS_LIVE.event, (p) => leaked.push(p));

    const device = await addDevice(gw.url, auth, 'mqtt');
    const up = next<any>(socket, DEVICE_STATUS_LIVE.event);
    const a = await mqttAttempt(gw.mqttPort, {
      clientId: unique('c'),
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
    });
    clients.push(a.client!);
    const on = await up;
    expect(on).toEqual({ id: device.id, online: true, last_online_ts: expect.any(Number), last_offline_ts: null });
    expect(DeviceStatusPush.parse(on)).toEqual(on);
    const down = next<any>(socket, DEVICE_STATUS_LIVE.event);
    a.client!.end(true);
    const off = await down;
    expect(off).toMatchObject({ id: device.id, online: false });
    expect(off.last_offline_ts).toBeGreaterThanOrEqual(off.last_online_ts);
    expect(DeviceStatusPush.parse(off)).toEqual(off);
    expect(leaked).toEqual([]);
  });

  it('needs the application header and a role granting the device list', async () => {
    const noApp = await socketOf(sessionAuth(owner));
    expect((await ask(noApp, 'subscribe', { channel: DEVICE_STATUS_LIVE.channel, params: {} })).response_result).toBe(
      -10,
    );
    const member = await memberWithRole(gw.url, owner, { sys_navs: ['_user_manage_'] });
    const s = await socketOf({
      [Header.accountId]: String(member.member.id),
      [Header.accountToken]: member.member.token,
      [Header.appDomain]: owner.domain,
    });
    expect((await ask(s, 'subscribe', { channel: DEVICE_STATUS_LIVE.channel, params: {} })).response_result).toBe(-13);
    const reader = await memberWithRole(gw.url, owner, { sys_navs: ['_device_list_'] });
    const r = await socketOf({
      [Header.accountId]: String(reader.member.id),
      [Header.accountToken]: reader.member.token,
      [Header.appDomain]: owner.domain,
    });
    expect((await ask(r, 'subscribe', { channel: DEVICE_STATUS_LIVE.channel, params: {} })).response_result).toBe(0);
  });
});

describe('live device data (channel "device-data")', () => {
  it('emits device.data with the stored values of each message; a foreign device is 404', async () => {
    const device = await addDevice(gw.url, auth, 'mqtt');
    const socket = await socketOf(sessionAuth(owner, owner.domain));
    expect(
      await ask(socket, 'subscribe', { channel: DEVICE_DATA_LIVE.channel, params: { device_id: device.id } }),
    ).toEqual({ response_result: 0, room: `device-data.${device.id}` });
    const a = await mqttAttempt(gw.mqttPort, {
      clientId: unique('c'),
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
    });
    clients.push(a.client!);
    const arrived = next<any>(socket, DEVICE_DATA_LIVE.event);
    const ts = Date.now() - 1000;
    await a.client!.publishAsync(
      `d/${device.id}/data`,
      JSON.stringify({ _ts: ts, env: { data: { t: 22.5, p: { r: 1 } } } }),
      { qos: 1 },
    );
    const pushed = await arrived;
    expect(DeviceDataPush.parse(pushed)).toEqual(pushed);
    expect(pushed).toEqual({
      device_id: device.id,
      data: [
        { sensor: 'env', configtype: 'data', param: 't', subparam: '', datatype: 'number', value: 22.5, ts },
        { sensor: 'env', configtype: 'data', param: 'p', subparam: 'r', datatype: 'number', value: 1, ts },
      ],
      states: [],
    });
    const states = next<any>(socket, DEVICE_DATA_LIVE.event);
    await a.client!.publishAsync(`d/${device.id}/state`, JSON.stringify({ _ts: ts, mode: 'auto' }), { qos: 1 });
    const changed = await states;
    expect(DeviceDataPush.parse(changed)).toEqual(changed);
    expect(changed.states).toEqual([{ key: 'mode', value: 'auto', is_null: false, ts }]);

    const stranger = await tenantWithApp(gw.url);
    const other = await socketOf(sessionAuth(stranger, stranger.domain));
    expect(
      (await ask(other, 'subscribe', { channel: DEVICE_DATA_LIVE.channel, params: { device_id: device.id } }))
        .response_result,
    ).toBe(-11);
    expect(
      (await ask(other, 'subscribe', { channel: DEVICE_DATA_LIVE.channel, params: { device_id: 'x' } }))
        .response_result,
    ).toBe(-10);
  });
});
