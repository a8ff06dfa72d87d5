import { describe, expect, it } from 'vitest';
import { adaptMessage } from '../index.js';
import type { DeviceContext } from '../wire.js';

const plug: DeviceContext = { deviceId: 9, appId: 1, category: 9, tasmotaTopic: 'tasmota_5A1B2C' };
const msg = (topic: string, payload: unknown) =>
  adaptMessage(plug, topic, Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)));

describe('Tasmota adapter', () => {
  it('turns a real tele/<topic>/SENSOR energy report into ENERGY points, keeping TotalStartTime as a string', () => {
    const r = msg('tele/tasmota_5A1B2C/SENSOR', {
      Time: '2024-01-01T00:00:00',
      ENERGY: {
        TotalStartTime: '2023-11-02T09:14:03',
        Total: 1.234,
        Yesterday: 0.1,
        Today: 0.2,
        Power: 45,
        ApparentPower: 50,
        ReactivePower: 20,
        Factor: 0.9,
        Voltage: 229,
        Current: 0.2,
      },
    });
    expect(r).toEqual({
      ok: true,
      out: {
        states: [],
        points: [
          {
            sensor: 'ENERGY',
            configtype: 'data',
            param: 'TotalStartTime',
            subparam: '',
            datatype: 'string',
            value: '2023-11-02T09:14:03',
          },
          { sensor: 'ENERGY', configtype: 'data', param: 'Total', subparam: '', datatype: 'number', value: 1.234 },
          { sensor: 'ENERGY', configtype: 'data', param: 'Yesterday', subparam: '', datatype: 'number', value: 0.1 },
          { sensor: 'ENERGY', configtype: 'data', param: 'Today', subparam: '', datatype: 'number', value: 0.2 },
          { sensor: 'ENERGY', configtype: 'data', param: 'Power', subparam: '', datatype: 'number', value: 45 },
          { sensor: 'ENERGY', configtype: 'data', param: 'ApparentPower', subparam: '', datatype: 'number', value: 50 },
          { sensor: 'ENERGY', configtype: 'data', param: 'ReactivePower', subparam: '', datatype: 'number', value: 20 },
          { sensor: 'ENERGY', configtype: 'data', param: 'Factor', subparam: '', datatype: 'number', value: 0.9 },
          { sensor: 'ENERGY', configtype: 'data', param: 'Voltage', subparam: '', datatype: 'number', value: 229 },
          { sensor: 'ENERGY', configtype: 'data', param: 'Current', subparam: '', datatype: 'number', value: 0.2 },
        ],
      },
    });
  });

  it('splits multi-channel arrays into subparams 1..n and keeps TempUnit as a state', () => {
    const r = msg('tele/tasmota_5A1B2C/SENSOR', {
      Time: '2024-01-01T00:00:00',
      ENERGY: { Power: [45, 30] },
      AM2301: { Temperature: 24.1, Humidity: 61.2 },
      TempUnit: 'C',
    });
    expect(r.ok && r.out.points.map((p) => [p.sensor, p.param, p.subparam, p.value])).toEqual([
      ['ENERGY', 'Power', '1', 45],
      ['ENERGY', 'Power', '2', 30],
      ['AM2301', 'Temperature', '', 24.1],
      ['AM2301', 'Humidity', '', 61.2],
    ]);
    expect(r.ok && r.out.states).toEqual([{ key: 'TempUnit', value: 'C' }]);
  });

  it('reads tele/<topic>/STATE: POWER and modes as states, uptime, heap and Wi-Fi signal as device points', () => {
    const r = msg('tele/tasmota_5A1B2C/STATE', {
      Time: '2024-01-01T00:05:00',
      Uptime: '0T00:05:00',
      UptimeSec: 300,
      Heap: 26,
      SleepMode: 'Dynamic',
      Sleep: 50,
      LoadAvg: 19,
      MqttCount: 1,
      POWER: 'ON',
      Wifi: {
        AP: 1,
        SSId: 'rumah',
        BSSId: 'AA:BB:CC:DD:EE:FF',
        Channel: 6,
        Mode: '11n',
        RSSI: 80,
        Signal: -60,
        LinkCount: 1,
        Downtime: '0T00:00:03',
      },
    });
    expect(r.ok && r.out.states).toEqual([
      { key: 'SleepMode', value: 'Dynamic' },
      { key: 'POWER', value: 'ON' },
    ]);
    expect(r.ok && r.out.points.map((p) => [p.sensor, p.param, p.subparam, p.value])).toEqual([
      ['device', 'UptimeSec', '', 300],
      ['device', 'Heap', '', 26],
      ['device', 'Sleep', '', 50],
      ['device', 'LoadAvg', '', 19],
      ['device', 'MqttCount', '', 1],
      ['device', 'Wifi', 'RSSI', 80],
      ['device', 'Wifi', 'Signal', -60],
      ['device', 'Wifi', 'LinkCount', 1],
    ]);
  });

  it('takes a Time with its UTC offset (SetOption52 1) as the reading time, a zone-less Time not', () => {
    const withZone = msg('tele/tasmota_5A1B2C/SENSOR', {
      Time: '2026-12-06T20:10:00+07:00',
      ENERGY: { Total: 1.5 },
    });
    expect(withZone.ok && withZone.out.ts).toBe(Date.UTC(2026, 11, 6, 13, 10));
    const state = msg('tele/tasmota_5A1B2C/STATE', { Time: '2026-12-06T20:10:00Z', UptimeSec: 5 });
    expect(state.ok && state.out.ts).toBe(Date.UTC(2026, 11, 6, 20, 10));
    const local = msg('tele/tasmota_5A1B2C/SENSOR', { Time: '2026-12-06T20:10:00', ENERGY: { Total: 1.5 } });
    expect(local.ok && local.out.ts).toBeUndefined();
  });
  it('reads LWT Online/Offline as the online flag', () => {
    expect(msg('tele/tasmota_5A1B2C/LWT', 'Online')).toEqual({
      ok: true,
      out: { points: [], states: [], online: true },
    });
    expect(msg('tele/tasmota_5A1B2C/LWT', 'Offline')).toEqual({
      ok: true,
      out: { points: [], states: [], online: false },
    });
    expect(msg('tele/tasmota_5A1B2C/LWT', 'Maybe')).toMatchObject({ ok: false, reason: 'bad_value' });
  });

  it('reads stat/<topic>/RESULT and stat/<topic>/POWER as states', () => {
    expect(msg('stat/tasmota_5A1B2C/RESULT', { POWER: 'ON' })).toEqual({
      ok: true,
      out: { points: [], states: [{ key: 'POWER', value: 'ON' }] },
    });
    expect(msg('stat/tasmota_5A1B2C/POWER1', 'OFF')).toEqual({
      ok: true,
      out: { points: [], states: [{ key: 'POWER1', value: 'OFF' }] },
    });
  });

  it('drops malformed messages with a reason and ignores topics that are not telemetry', () => {
    expect(msg('tele/tasmota_5A1B2C/SENSOR', '{"ENERGY":')).toMatchObject({ ok: false, reason: 'not_json' });
    expect(msg('tele/tasmota_5A1B2C/SENSOR', [1, 2])).toMatchObject({ ok: false, reason: 'bad_shape' });
    expect(msg('tele/other_plug/SENSOR', {})).toMatchObject({ ok: false, reason: 'topic_mismatch' });
    expect(msg('d/9/data', {})).toMatchObject({ ok: false, reason: 'unknown_topic' });
    expect(msg('tele/tasmota_5A1B2C/INFO1', { Info1: {} })).toEqual({ ok: true, out: { points: [], states: [] } });
  });
});
