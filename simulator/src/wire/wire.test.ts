// Every family's frames decode through the gateway's own adapters (imported from server/src: they are pure) into the
// series the reading names.
import { describe, expect, it } from 'vitest';
import { adaptMessage, type DeviceContext, type RawPoint } from '../../../server/src/modules/devices/families/index.js';
import { PROFILE_NAMES, PROFILES, Simulation } from '../profiles/index.js';
import {
  flatten,
  gatewayUp,
  genericFrames,
  genericReply,
  loraDecoderFor,
  loraUplink,
  loraStatus,
  malformed,
  MALFORMATIONS,
  parseGenericCommand,
  parseLoraDownlink,
  loraDownlinkEvents,
  registerMap,
  tasmotaAnswer,
  tasmotaLwt,
  tasmotaSensor,
  tasmotaState,
  type Frame,
} from './index.js';

const START = Date.UTC(2025, 0, 7, 3, 0, 0);
const reading = (profile: keyof typeof PROFILES, steps = 30) => {
  const sim = new Simulation(PROFILES[profile], 'wire', 1, START);
  for (let i = 0; i < steps; i++) sim.advance(60_000);
  return sim.reading();
};
const decode = (ctx: DeviceContext, f: Frame) =>
  adaptMessage(ctx, f.topic, Buffer.isBuffer(f.payload) ? f.payload : Buffer.from(f.payload));
const key = (p: { sensor: string; configtype: string; param: string; subparam: string }) =>
  `${p.sensor}/${p.configtype}/${p.param}/${p.subparam}`;
const pointsOf = (r: ReturnType<typeof decode>): RawPoint[] => {
  if (!r.ok) throw new Error(`rejected: ${r.reason} ${r.detail ?? ''}`);
  return r.out.points;
};

describe('generic MQTT, Sentra end devices, Dummy: d/<id>/data and d/<id>/state', () => {
  it.each(PROFILE_NAMES)('%s readings become one point per leaf, named as in the reading', (name) => {
    const r = reading(name);
    const ctx: DeviceContext = { deviceId: 42, appId: 1, category: 8 };
    const [data, state] = genericFrames(42, r, { withStates: true });
    expect(data!.topic).toBe('d/42/data');
    const points = pointsOf(decode(ctx, data!));
    const expected = flatten(r.data);
    expect(points.map(key).sort()).toEqual(expected.map(key).sort());
    for (const p of points) expect(p.value).toEqual(expected.find((e) => key(e) === key(p))!.value);
    if (state) {
      const res = decode(ctx, state);
      expect(res.ok && res.out.states.map((s) => s.key).sort()).toEqual(Object.keys(r.states!).sort());
    }
  });

  it('states the measurement time with _ts when back-filling', () => {
    const res = decode({ deviceId: 7, appId: 1, category: 2 }, genericFrames(7, reading('meter'), { ts: START })[0]!);
    expect(res.ok && res.out.ts).toBe(START);
  });

  it('reads a command and answers {id, ok, code?} on d/<id>/cmd/res', () => {
    const cmd = parseGenericCommand(
      JSON.stringify({ id: 'c1', sensor: 'washer', configtype: 'data', param: 'start', value: 'w1' }),
    );
    expect(cmd).toEqual({ id: 'c1', sensor: 'washer', configtype: 'data', param: 'start', value: 'w1' });
    expect(parseGenericCommand('not json')).toBeNull();
    expect(genericReply(9, { id: 'c1', ok: false, code: -31 })).toEqual({
      topic: 'd/9/cmd/res',
      payload: '{"id":"c1","ok":false,"code":-31}',
    });
    // the reply topic is the command flow's, the telemetry adapter leaves it alone
    const res = decode({ deviceId: 9, appId: 1, category: 8 }, genericReply(9, { id: 'c1', ok: true }));
    expect(res.ok && res.out.points.length + res.out.states.length).toBe(0);
  });
});

describe('Tasmota: tele/stat/LWT/cmnd as the firmware does it', () => {
  const ctx: DeviceContext = { deviceId: 5, appId: 1, category: 9, tasmotaTopic: 'sentra_ab12' };

  it('SENSOR carries ENERGY and COUNTER of a laundry plug', () => {
    const points = pointsOf(decode(ctx, tasmotaSensor('sentra_ab12', reading('plug'), START)));
    expect(points.map(key)).toEqual(
      expect.arrayContaining(['ENERGY/data/Power/', 'ENERGY/data/Total/', 'ENERGY/data/Voltage/', 'COUNTER/data/C1/']),
    );
  });

  it('SENSOR of an environment plug is a BME280 with its units as states', () => {
    const res = decode(ctx, tasmotaSensor('sentra_ab12', reading('environment'), START));
    expect(pointsOf(res).map(key).sort()).toEqual([
      'BME280/data/Humidity/',
      'BME280/data/Pressure/',
      'BME280/data/Temperature/',
    ]);
    expect(res.ok && res.out.states.map((s) => s.key).sort()).toEqual(['PressureUnit', 'TempUnit']);
  });

  it('STATE gives uptime and Wi-Fi points and the POWER state', () => {
    const res = decode(ctx, tasmotaState('sentra_ab12', { t: START, power: 'ON', uptimeSec: 3723, rssi: 76 }));
    expect(pointsOf(res).map(key)).toEqual(expect.arrayContaining(['device/data/UptimeSec/', 'device/data/Wifi/RSSI']));
    expect(res.ok && res.out.states).toEqual(expect.arrayContaining([{ key: 'POWER', value: 'ON' }]));
  });

  it('LWT Online/Offline tells presence', () => {
    const on = decode(ctx, tasmotaLwt('sentra_ab12', true));
    const off = decode(ctx, tasmotaLwt('sentra_ab12', false));
    expect(on.ok && on.out.online).toBe(true);
    expect(off.ok && off.out.online).toBe(false);
  });

  it('answers cmnd/<topic>/POWER with stat/<topic>/RESULT and stat/<topic>/POWER, which decode as states', () => {
    const a = tasmotaAnswer('sentra_ab12', 'POWER', 'TOGGLE', 'OFF', 300);
    expect(a.power).toBe('ON');
    expect(a.frames).toEqual([
      { topic: 'stat/sentra_ab12/RESULT', payload: '{"POWER":"ON"}' },
      { topic: 'stat/sentra_ab12/POWER', payload: 'ON' },
    ]);
    for (const f of a.frames) {
      const res = decode(ctx, f);
      expect(res.ok && res.out.states).toEqual([{ key: 'POWER', value: 'ON' }]);
    }
    expect(tasmotaAnswer('sentra_ab12', 'POWER', '', 'ON', 300)).toMatchObject({
      power: undefined,
      frames: [{ payload: '{"POWER":"ON"}' }, { payload: 'ON' }],
    });
    expect(tasmotaAnswer('sentra_ab12', 'Dimmer', '40', 'ON', 300).frames[0]!.payload).toBe('{"Command":"Unknown"}');
  });
});

describe('LoRa behind a ChirpStack-v4-style network server', () => {
  const node = {
    appId: 3,
    applicationName: 'Demo',
    devEui: 'A1B2C3D4E5F60718',
    deviceName: 'lora-1',
    gatewayId: '0016c001ff10a235',
  };
  const ctx: DeviceContext = { deviceId: 11, appId: 3, category: 3, devEui: 'a1b2c3d4e5f60718' };

  it.each(['environment', 'gps', 'structural'] as const)(
    '%s uplinks decode from the object, with radio quality',
    (name) => {
      const r = reading(name);
      const f = loraUplink(node, { t: START, fCnt: 12, reading: r, rssi: -87, snr: 7.5 });
      expect(f.topic).toBe('application/3/device/a1b2c3d4e5f60718/event/up');
      const points = pointsOf(decode(ctx, f));
      expect(points.filter((p) => p.sensor === 'lora').length).toBe(flatten(r.data).length);
      expect(points.map(key)).toEqual(expect.arrayContaining(['radio/data/rssi/', 'radio/data/snr/']));
    },
  );

  it('the base64 data decodes to the same values with the decoder table, when no object is sent', () => {
    const r = reading('environment');
    const f = loraUplink(node, { t: START, fCnt: 1, reading: r, rssi: -90, snr: 5 });
    const body = JSON.parse(f.payload.toString());
    delete body.object;
    const points = pointsOf(
      adaptMessage({ ...ctx, loraDecoder: loraDecoderFor(r) }, f.topic, Buffer.from(JSON.stringify(body))),
    );
    const env = r.data.env!.data! as Record<string, number>;
    expect(points.find((p) => p.param === 'temperature')!.value).toBeCloseTo(env.temperature!, 2);
    expect(points.find((p) => p.param === 'humidity')!.value).toBeCloseTo(env.humidity!, 1);
  });

  it('status events carry the battery; downlinks are parsed and answered with txack and ack', () => {
    expect(pointsOf(decode(ctx, loraStatus(node, { t: START, batteryLevel: 87.5, margin: 9 }))).map(key)).toEqual([
      'status/data/battery_level/',
      'status/data/margin/',
    ]);
    const d = parseLoraDownlink(
      'application/3/device/a1b2c3d4e5f60718/command/down',
      JSON.stringify({
        id: 'q1',
        devEui: 'a1b2c3d4e5f60718',
        confirmed: true,
        fPort: 10,
        object: { param: 'interval', value: 300 },
      }),
    );
    expect(d).toMatchObject({ id: 'q1', confirmed: true, command: { param: 'interval', value: 300 } });
    const events = loraDownlinkEvents(node, d!, START, 4, true);
    expect(events.map((e) => e.topic.split('/').at(-1))).toEqual(['txack', 'ack']);
    for (const e of events) expect(decode(ctx, e)).toMatchObject({ ok: true, out: { points: [] } });
  });
});

describe('serial gateways: gw/<uid>/up with Modbus-like register sets', () => {
  const ctx: DeviceContext = { deviceId: 21, appId: 1, category: 4, uid: 'ZLAN-0A1B2C' };

  it.each(['meter', 'fuel', 'structural'] as const)(
    'a poll cycle of three %s nodes becomes node<n>/data/<register> points',
    (name) => {
      const nodes = [1, 2, 3].map((node) => ({ node, reading: reading(name, node * 5) }));
      const f = gatewayUp('ZLAN-0A1B2C', nodes, START);
      const points = pointsOf(decode(ctx, f));
      const map = registerMap(nodes[0]!.reading);
      expect(points.length).toBe(map.length * 3);
      expect(points.map((p) => p.sensor)).toEqual(expect.arrayContaining(['node1', 'node2', 'node3']));
      expect(map[0]!.register).toBe('40001');
      const first = flatten(nodes[1]!.reading.data)[0]!;
      expect(points.find((p) => p.sensor === 'node2' && p.param === '40001')!.value).toBe(first.value);
    },
  );
});

describe('faults', () => {
  it.each(MALFORMATIONS)('a %s frame is rejected by the adapter, never stored', (kind) => {
    const ctx: DeviceContext = { deviceId: 42, appId: 1, category: 8 };
    const res = decode(ctx, malformed(genericFrames(42, reading('environment'))[0]!, kind));
    expect(res.ok).toBe(false);
    const gw = decode(
      { deviceId: 2, appId: 1, category: 5, uid: 'U1' },
      malformed(gatewayUp('U1', [{ node: 1, reading: reading('meter') }]), kind),
    );
    expect(gw.ok).toBe(false);
  });
});
