// A real MQTT.js client publishes through the gateway's real broker into stored, queryable rows.
import mqtt from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerAuthority, MqttIdentity } from '../src/platform/mqtt/types.js';
import type { DeviceResolver } from '../src/modules/devices/families/index.js';
import { startGateway, type Running } from './harness.js';
import { until } from './fixtures.js';

// a test-only authority: username `tele-<id>` is device <id> of application 9001, publishing under d/<id>/ only (the
// client id differs from the username: the device registry reads username = client id as a serial gateway's UID)
const authority: BrokerAuthority = {
  authenticate: (_clientId, username) =>
    username?.startsWith('tele-') ? { key: `tele:${username.slice(5)}`, appId: 9001 } : null,
  authorizePublish: (identity, topic) => topic.startsWith(`d/${identity.key.slice(5)}/`),
  authorizeSubscribe: () => false,
};
const resolver: DeviceResolver = {
  resolveDevice: (identity: MqttIdentity) =>
    identity.key.startsWith('tele:') ? { deviceId: Number(identity.key.slice(5)), appId: 9001, category: 8 } : null,
};

let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
  gw.app.broker.addAuthority(authority);
  gw.app.telemetry.useResolver(resolver);
});
afterAll(async () => {
  await gw?.stop();
});

describe('telemetry over MQTT', () => {
  // presence (online while connected, offline when it leaves) is the device registry's: device-broker.test.ts, presence.test.ts
  it('stores what a device publishes with QoS 0 and QoS 1', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.app.broker.port}`, {
      username: 'tele-4242',
      clientId: 'client-4242',
      reconnectPeriod: 0,
    });
    const base = Date.now() - 60_000;
    try {
      for (let i = 0; i < 20; i++)
        await client.publishAsync(
          'd/4242/data',
          JSON.stringify({ _ts: base + i * 1000, env: { data: { temperature: 20 + i, door: i % 2 === 0 } } }),
          { qos: 1 },
        );
      await client.publishAsync('d/4242/data', JSON.stringify({ env: { data: { humidity: 55 } } }), { qos: 0 });
      await client.publishAsync('d/4242/state', JSON.stringify({ mode: 'auto', alarm: null }), { qos: 1 });
      await client.publishAsync('d/4242/data', 'bukan json', { qos: 1 });
      const reads = gw.app.telemetry.query;
      expect(
        await until(
          async () =>
            (await reads.findSeries(9001, 4242, { sensor: 'env', configtype: 'data', param: 'humidity' })) !== null &&
            (await reads.latestOfDevice(9001, 4242)).every((l) => l.data_exist),
          5000,
        ),
      ).toBe(true);
      await gw.app.telemetry.flush();
      const temperature = (await reads.findSeries(9001, 4242, {
        sensor: 'env',
        configtype: 'data',
        param: 'temperature',
      }))!;
      expect((await reads.latestN(temperature, 3)).map((p) => p.value)).toEqual([39, 38, 37]);
      expect(
        (await reads.rollups(temperature, { bucket: 'hour', start: base - 3_600_000, end: base + 3_600_000 })).reduce(
          (n, b) => n + b.count,
          0,
        ),
      ).toBe(20);
      expect(await until(async () => (await gw.app.telemetry.states.list(9001, 4242)).length === 2, 5000)).toBe(true);
      expect((await gw.app.telemetry.states.list(9001, 4242)).map((s) => [s.key, s.value, s.is_null])).toEqual([
        ['alarm', null, true],
        ['mode', 'auto', false],
      ]);
      expect(gw.app.telemetry.rejectsOf(4242)).toMatchObject({ count: 1, last_reason: 'not_json' });
    } finally {
      await client.endAsync();
    }
  });

  it('stores a QoS 1 message before its PUBACK and a QoS 2 message before its PUBREC (then PUBREL → PUBCOMP)', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.app.broker.port}`, {
      username: 'tele-4343',
      clientId: 'client-4343',
      reconnectPeriod: 0,
    });
    try {
      const stored = () => (gw.app.telemetry.metrics() as { stored_points: number }).stored_points;
      for (let i = 0; i < 6; i++) {
        const before = stored();
        // QoS 1 resolves on PUBACK, QoS 2 on PUBCOMP (after the PUBREC): each left only after the point was committed
        await client.publishAsync('d/4343/data', JSON.stringify({ env: { data: { level: i } } }), {
          qos: i % 2 === 0 ? 1 : 2,
        });
        expect(stored()).toBeGreaterThan(before);
      }
      const level = (await gw.app.telemetry.query.findSeries(9001, 4343, {
        sensor: 'env',
        configtype: 'data',
        param: 'level',
      }))!;
      expect((await gw.app.telemetry.query.latestN(level, 6)).map((p) => p.value)).toEqual([5, 4, 3, 2, 1, 0]);
    } finally {
      await client.endAsync();
    }
  });
  it('stores a QoS 2 message re-sent with DUP after its PUBREC (before PUBREL) once, and answers the copy with a PUBREC', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.app.broker.port}`, {
      username: 'tele-4444',
      clientId: 'client-4444',
      reconnectPeriod: 0,
    });
    try {
      // on the PUBREC of each QoS 2 PUBLISH, and before MQTT.js answers it with PUBREL, the client sends the same
      // PUBLISH again with DUP, as a device that missed the PUBREC would
      const sent = new Map<number, Record<string, unknown>>();
      let resent = 0;
      let recs = 0;
      client.on('packetsend', (p) => {
        if (p.cmd === 'publish' && p.qos === 2) sent.set(p.messageId!, { ...p });
      });
      client.on('packetreceive', (p) => {
        if (p.cmd !== 'pubrec') return;
        recs++;
        const first = sent.get(p.messageId!);
        if (!first) return;
        sent.delete(p.messageId!);
        resent++;
        client.stream.write(mqttPacket.generate({ ...(first as unknown as mqttPacket.IPublishPacket), dup: true }));
      });
      for (let i = 0; i < 5; i++)
        await client.publishAsync('d/4444/data', JSON.stringify({ env: { data: { count: i } } }), { qos: 2 });
      expect(resent).toBe(5);
      // each copy was answered with a PUBREC of its own (the first one's had gone already)
      expect(await until(() => recs === 10)).toBe(true);
      await gw.app.telemetry.flush();
      const count = (await gw.app.telemetry.query.findSeries(9001, 4444, {
        sensor: 'env',
        configtype: 'data',
        param: 'count',
      }))!;
      expect((await gw.app.telemetry.query.latestN(count, 20)).map((p) => p.value)).toEqual([4, 3, 2, 1, 0]);
    } finally {
      await client.endAsync();
    }
  });
});
