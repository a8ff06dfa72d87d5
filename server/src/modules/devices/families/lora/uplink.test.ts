import { describe, expect, it } from 'vitest';
import { adaptMessage } from '../index.js';
import type { DeviceContext } from '../wire.js';

const eui = '0102030405060708';
const sensorNode: DeviceContext = { deviceId: 7, appId: 1, category: 3, devEui: eui.toUpperCase() };
const topic = (event: string) => `application/6f1d3c1e-4c2a-4b8e-9e0e-000000000001/device/${eui}/event/${event}`;
const msg = (t: string, payload: unknown, ctx = sensorNode) =>
  adaptMessage(ctx, t, Buffer.from(JSON.stringify(payload)));

// shape of a ChirpStack v4 integration event (trimmed of fields we do not read)
const uplink = {
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2024-01-01T00:00:00.123+00:00',
  deviceInfo: {
    tenantId: 't',
    tenantName: 'Sentra',
    applicationId: 'a',
    applicationName: 'kebun',
    deviceProfileId: 'p',
    deviceProfileName: 'suhu',
    deviceName: 'node-7',
    devEui: eui,
    tags: {},
  },
  devAddr: '01fe0a2b',
  adr: true,
  dr: 5,
  fCnt: 10,
  fPort: 2,
  confirmed: false,
  data: 'AOEBkg==',
  object: { temperature: 22.5, humidity: 40.2, valve: true },
  rxInfo: [
    { gatewayId: '0016c001ff10a235', rssi: -57, snr: 10.2 },
    { gatewayId: '0016c001ff10a236', rssi: -80, snr: 3 },
  ],
  txInfo: { frequency: 868100000 },
};

describe('LoRa (ChirpStack v4) adapter', () => {
  it('turns the decoded object into lora points and the best gateway into radio points, at the uplink time', () => {
    const r = msg(topic('up'), uplink);
    expect(r).toEqual({
      ok: true,
      out: {
        states: [],
        ts: Date.parse('2024-01-01T00:00:00.123Z'),
        points: [
          { sensor: 'lora', configtype: 'data', param: 'temperature', subparam: '', datatype: 'number', value: 22.5 },
          { sensor: 'lora', configtype: 'data', param: 'humidity', subparam: '', datatype: 'number', value: 40.2 },
          { sensor: 'lora', configtype: 'data', param: 'valve', subparam: '', datatype: 'boolean', value: true },
          { sensor: 'radio', configtype: 'data', param: 'rssi', subparam: '', datatype: 'number', value: -57 },
          { sensor: 'radio', configtype: 'data', param: 'snr', subparam: '', datatype: 'number', value: 10.2 },
        ],
      },
    });
  });

  it('decodes raw data bytes with the device decoder table when there is no object', () => {
    // 0x00E1 = 225 → 22.5 °C; 0x0192 = 402 → 40.2 %
    const ctx: DeviceContext = {
      ...sensorNode,
      loraDecoder: {
        ports: {
          '2': [
            { name: 'temperature', offset: 0, type: 'i16', scale: 0.1 },
            { name: 'humidity', offset: 2, type: 'u16', scale: 0.1 },
            { name: 'alarm', offset: 3, type: 'bit', bit: 1 },
          ],
        },
      },
    };
    const r = msg(topic('up'), { ...uplink, object: undefined }, ctx);
    expect(r.ok && r.out.points.slice(0, 3).map((p) => [p.param, p.datatype, p.value])).toEqual([
      ['temperature', 'number', 22.5],
      ['humidity', 'number', 40.2],
      ['alarm', 'boolean', true],
    ]);
  });

  it('keeps raw bytes as hex when no decoder is configured, and rejects bytes shorter than the decoder table', () => {
    const r = msg(topic('up'), { ...uplink, object: undefined, rxInfo: [] });
    expect(r.ok && r.out.points).toEqual([
      { sensor: 'lora', configtype: 'data', param: 'raw', subparam: '', datatype: 'string', value: '00e10192' },
    ]);
    const ctx: DeviceContext = {
      ...sensorNode,
      loraDecoder: { ports: { '*': [{ name: 'x', offset: 6, type: 'u16' }] } },
    };
    expect(msg(topic('up'), { ...uplink, object: undefined }, ctx)).toMatchObject({
      ok: false,
      reason: 'decoder_error',
    });
  });

  it('reads status events (battery, margin) and join events', () => {
    const r = msg(topic('status'), {
      deviceInfo: { devEui: eui },
      time: '2024-01-01T00:00:00Z',
      margin: 7,
      externalPowerSource: false,
      batteryLevel: 87.5,
    });
    expect(r.ok && r.out.points.map((p) => [p.sensor, p.param, p.value])).toEqual([
      ['status', 'battery_level', 87.5],
      ['status', 'margin', 7],
    ]);
    expect(msg(topic('join'), { deviceInfo: { devEui: eui } })).toEqual({
      ok: true,
      out: { points: [], states: [], online: true },
    });
    expect(msg(topic('txack'), { deviceInfo: { devEui: eui } })).toEqual({ ok: true, out: { points: [], states: [] } });
  });

  it('drops uplinks of another device, without deviceInfo, or with a data field that is not base64', () => {
    expect(msg(topic('up').replace(eui, '0102030405060709'), uplink)).toMatchObject({
      ok: false,
      reason: 'topic_mismatch',
    });
    expect(msg(topic('up'), { ...uplink, deviceInfo: { devEui: '0102030405060709' } })).toMatchObject({
      ok: false,
      reason: 'topic_mismatch',
    });
    expect(msg(topic('up'), { fPort: 2 })).toMatchObject({ ok: false, reason: 'bad_shape' });
    expect(msg(topic('up'), { ...uplink, object: undefined, data: '%%%' })).toMatchObject({
      ok: false,
      reason: 'bad_value',
    });
  });
});
