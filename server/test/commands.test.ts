// Device commands (docs/conventions.md "Commands", "Codes of the domain", "Device topics"): the configuration call
// reaches each family's device in its own format and answers its reply; -30 offline, -31 busy, -32 time-out; the bus
// path `cmd.<app>.<device>` is what the HTTP call uses, so other processes can send commands too.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { COMMAND_REFUSED, Result, T, commandsContract, devicesContract } from '@sentra/contracts';
import { call, type Running } from './harness.js';
import { addDevice, until } from './fixtures.js';
import {
  COMMAND_WAIT_MS,
  loraDevice,
  mqttDevice,
  serialGateway,
  startDataGateway,
  tasmotaDevice,
  type AppAuth,
  type Owner,
} from './device-data.kit.js';

let gw: Running;
let auth: AppAuth;
let owner: Owner;
let clients: MqttClient[];
beforeAll(async () => {
  ({ gw, auth, owner, clients } = await startDataGateway());
});
afterEach(() => {
  clients.splice(0).forEach((c) => c.end(true));
});
afterAll(async () => gw.stop());

const configure = (id: number, value: unknown = 25, param = 'setpoint') =>
  call(gw.url, commandsContract.configure, { id, sensor: 'hvac', configtype: 'config', param, value }, auth);

/** a generic device answering every command on d/<id>/cmd/res */
async function replyingDevice(answer: (cmd: any) => object | null = (cmd) => ({ id: cmd.id, ok: true })) {
  const { device, client } = await mqttDevice(gw, auth, clients);
  const received: any[] = [];
  await client.subscribeAsync(`d/${device.id}/cmd`, { qos: 1 });
  client.on('message', (topic, payload) => {
    if (topic !== `d/${device.id}/cmd`) return;
    const cmd = JSON.parse(payload.toString());
    received.push(cmd);
    const reply = answer(cmd);
    if (reply) client.publish(`d/${device.id}/cmd/res`, JSON.stringify(reply), { qos: 1 });
  });
  return { device, client, received };
}

describe('generic MQTT devices (d/<id>/cmd → d/<id>/cmd/res)', () => {
  it('answers success with the reply of a device that answers, correlated by id', async () => {
    const { device, received } = await replyingDevice();
    const r = await configure(device.id, 25.5);
    expect(r.status).toBe(200);
    expect(received).toEqual([
      { id: expect.any(String), sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 25.5 },
    ]);
    expect(r.body).toMatchObject({
      response_result: 0,
      data: {
        id: received[0].id,
        device_id: device.id,
        sensor: 'hvac',
        configtype: 'config',
        param: 'setpoint',
        value: 25.5,
        reply: { id: received[0].id, ok: true },
      },
    });
    expect(r.body.data.reply_ts).toBeGreaterThanOrEqual(r.body.data.sent_ts);
  });

  it('ignores replies with another id and answers -32 when the device never replies in time', async () => {
    const { device } = await replyingDevice((cmd) => ({ id: `${cmd.id}-lain`, ok: true }));
    const started = Date.now();
    const r = await configure(device.id);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ response_result: Result.DEVICE_TIMEOUT, message: T.deviceData.commandTimeout });
    expect(Date.now() - started).toBeGreaterThanOrEqual(COMMAND_WAIT_MS - 50);
  });

  it('answers -30 at once for a device that is not connected', async () => {
    const device = await addDevice(gw.url, auth, 'mqtt');
    const r = await configure(device.id);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ response_result: Result.DEVICE_OFFLINE, message: T.deviceData.commandOffline });
    const dummy = await addDevice(gw.url, auth, 'dummy');
    expect((await configure(dummy.id)).body.response_result).toBe(Result.DEVICE_OFFLINE);
  });

  it('answers -31 to a second command while the first one to the same device is pending', async () => {
    const { device, received } = await replyingDevice(() => null);
    const [first, second] = await Promise.all([
      configure(device.id, 1),
      new Promise((r) => setTimeout(r, 100)).then(() => configure(device.id, 2)),
    ]);
    expect(second.body).toEqual({ response_result: Result.DEVICE_BUSY, message: T.deviceData.commandBusy });
    expect(first.body.response_result).toBe(Result.DEVICE_TIMEOUT);
    expect(received.map((c) => c.value)).toEqual([1]);
    // once the first one is over the device takes commands again
    expect((await configure(device.id, 3)).body.response_result).toBe(Result.DEVICE_TIMEOUT);
  });

  it(`answers ${COMMAND_REFUSED} when the device replies ok: false`, async () => {
    const { device } = await replyingDevice((cmd) => ({ id: cmd.id, ok: false, code: 'RANGE' }));
    expect((await configure(device.id)).body).toEqual({
      response_result: COMMAND_REFUSED,
      message: T.deviceData.commandRefused,
    });
  });

  it('answers -30 after the device disconnects, and -30 for a disabled device', async () => {
    const { device, client } = await replyingDevice();
    client.end(true);
    // once the registry says offline, a command is refused at once
    expect(
      await until(async () => !(await call(gw.url, devicesContract.get, { id: device.id }, auth)).body.data.online),
    ).toBe(true);
    expect((await configure(device.id)).body.response_result).toBe(Result.DEVICE_OFFLINE);
    const other = await replyingDevice();
    await call(gw.url, devicesContract.edit, { id: other.device.id, disabled: true }, auth);
    expect((await configure(other.device.id)).body.response_result).toBe(Result.DEVICE_OFFLINE);
  });

  it('refuses an empty value with -10 "Input error"', async () => {
    const { device } = await replyingDevice();
    const r = await configure(device.id, '');
    expect(r.body).toMatchObject({ response_result: -10 });
    expect(r.body.errors[0].message).toBe(T.deviceData.inputError);
    expect((await configure(device.id, null)).body.response_result).toBe(-10);
  });
});

describe('the bus path cmd.<app>.<device>', () => {
  it('is answered for any process: success, offline, busy', async () => {
    const { device } = await replyingDevice();
    const ok = await gw.app.bus.request<any>(`cmd.${owner.appId}.${device.id}`, {
      sensor: 's',
      configtype: 'config',
      param: 'p',
      value: true,
      waitMs: 500,
    });
    expect(ok).toMatchObject({ ok: true, data: { device_id: device.id, value: true, reply: { ok: true } } });
    const offline = await addDevice(gw.url, auth, 'mqtt');
    expect(
      await gw.app.bus.request<any>(`cmd.${owner.appId}.${offline.id}`, {
        sensor: 's',
        configtype: 'config',
        param: 'p',
        value: 1,
      }),
    ).toMatchObject({ ok: false, code: Result.DEVICE_OFFLINE });
    // the subject names the device: another application's id in the subject is not this device
    expect(
      await gw.app.bus.request<any>(`cmd.${owner.appId + 1000}.${device.id}`, {
        sensor: 's',
        configtype: 'config',
        param: 'p',
        value: 1,
      }),
    ).toMatchObject({ ok: false, code: Result.NOT_FOUND });
  });

  it('sendCommand is the one entry point (used by the HTTP call)', async () => {
    const { device } = await replyingDevice();
    const reply = await gw.app.commands.sendCommand({
      appId: owner.appId,
      deviceId: device.id,
      sensor: 's',
      configtype: 'config',
      param: 'p',
      value: { a: 1 },
    });
    expect(reply).toMatchObject({ device_id: device.id, value: { a: 1 } });
    expect(gw.app.commands.pendingCount()).toBe(0);
  });
});

describe('other families', () => {
  it('Tasmota: cmnd/<topic>/<Command> with the value as text, answered by stat/<topic>/RESULT', async () => {
    const { device, client, topic } = await tasmotaDevice(gw, auth, clients);
    const got: [string, string][] = [];
    await client.subscribeAsync(`cmnd/${topic}/#`, { qos: 1 });
    client.on('message', (t, payload) => {
      got.push([t, payload.toString()]);
      const command = t.split('/')[2]!;
      const answer =
        command === 'Power'
          ? { POWER: payload.toString() === 'ON' ? 'ON' : 'OFF' }
          : command === 'Dimmer'
            ? { Dimmer: Number(payload), POWER: 'ON' }
            : { Command: 'Unknown' };
      client.publish(`stat/${topic}/RESULT`, JSON.stringify(answer));
    });
    expect((await configure(device.id, true, 'Power')).body).toMatchObject({
      response_result: 0,
      data: { reply: { POWER: 'ON' } },
    });
    expect((await configure(device.id, 40, 'Dimmer')).body).toMatchObject({
      response_result: 0,
      data: { reply: { Dimmer: 40, POWER: 'ON' } },
    });
    expect((await configure(device.id, 1, 'Bogus')).body.response_result).toBe(COMMAND_REFUSED);
    expect(got).toEqual([
      [`cmnd/${topic}/Power`, 'ON'],
      [`cmnd/${topic}/Dimmer`, '40'],
      [`cmnd/${topic}/Bogus`, '1'],
    ]);
  });

  it('LoRa: a ChirpStack downlink on command/down, answered by the ack event of its queue item', async () => {
    const { device, ns, upTopic, devEui } = await loraDevice(gw, auth, owner.appId, clients, '70b3d57ed00cc001');
    await ns.subscribeAsync(`application/${owner.appId}/device/+/command/down`, { qos: 1 });
    const downs: any[] = [];
    ns.on('message', (t, payload) => {
      const down = JSON.parse(payload.toString());
      downs.push([t, down]);
      ns.publish(
        `application/${owner.appId}/device/${devEui}/event/ack`,
        JSON.stringify({ deviceInfo: { devEui }, queueItemId: down.id, acknowledged: true, fCntDown: 3 }),
      );
    });
    // offline until the device has been heard
    expect((await configure(device.id)).body.response_result).toBe(Result.DEVICE_OFFLINE);
    await ns.publishAsync(upTopic, JSON.stringify({ deviceInfo: { devEui }, object: { t: 1 } }), { qos: 1 });
    expect(
      await until(async () => (await call(gw.url, devicesContract.get, { id: device.id }, auth)).body.data.online),
    ).toBe(true);
    const r = await configure(device.id, 30);
    expect(r.body).toMatchObject({ response_result: 0, data: { reply: { acknowledged: true } } });
    expect(downs).toEqual([
      [
        `application/${owner.appId}/device/${devEui}/command/down`,
        {
          id: r.body.data.id,
          devEui,
          confirmed: true,
          fPort: 10,
          object: { sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 30 },
        },
      ],
    ]);
  });

  it('serial gateways: gw/<uid>/down, answered on gw/<uid>/res', async () => {
    const { device, client, uid } = await serialGateway(gw, auth, clients);
    await client.subscribeAsync(`gw/${uid}/down`, { qos: 1 });
    client.on('message', (t, payload) => {
      const down = JSON.parse(payload.toString());
      expect(down).toMatchObject({ node: 3, register: '40010', value: 12 });
      client.publish(`gw/${uid}/res`, JSON.stringify({ id: down.id, ok: true }));
    });
    const r = await call(
      gw.url,
      commandsContract.configure,
      { id: device.id, sensor: 'node3', configtype: 'config', param: '40010', value: 12 },
      auth,
    );
    expect(r.body).toMatchObject({ response_result: 0, data: { device_id: device.id, reply: { ok: true } } });
  });
});
