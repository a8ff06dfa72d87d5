// Scale-out (BUS=nats): two gateways share one NATS server and one database. A device connected to one gateway
// publishes; a viewer watching a dashboard through the other gateway gets the card update, whichever gateway of the
// writer queue group stored the points.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Socket } from 'socket.io-client';
import { CARD_LIVE, dashboardsContract, deviceFamilyCalls, devicesContract, type CardPush } from '@sentra/contracts';
import { call, onlineOf, startGateway, startScaleOut, type Running, type ScaleOut } from './harness.js';
import { latestPower, tenantWithApp, until } from './fixtures.js';
import { mqttDevice, type AppAuth } from './device-data.kit.js';
import { hasNatsServer } from '../src/platform/bus/testing/nats-server.js';
import { ask, openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';
import { addDevice } from './fixtures.js';
import { PRESENCE_GATHER_MS } from '../src/modules/devices/devices.broker.js';

describe.skipIf(!hasNatsServer)('live cards across gateways (BUS=nats)', () => {
  let scale: ScaleOut;
  let one: Running;
  let two: Running;
  const clients: MqttClient[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    scale = await startScaleOut();
    ({ one, two } = scale);
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    clients.forEach((c) => c.end(true));
    await scale?.stop();
  });

  it('pushes a card update to a viewer on the other gateway than the device', async () => {
    const owner = await tenantWithApp(one.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const meter = await mqttDevice(one, auth, clients);
    const id = meter.device.id;
    const conf = {
      version: '2',
      config: { refresh: 0 },
      var: {},
      dashboard: {
        daya: {
          key: 'daya',
          cat: 'SINGLE_VALUE_CARD',
          x: 0,
          y: 0,
          w: 1,
          h: 1,
          model: {
            value: latestPower(id),
          },
        },
      },
    };
    const added = await call(one.url, dashboardsContract.add, { label: 'Panel Gedung', conf_dashboard: conf }, auth);
    expect(added.body.response_result).toBe(0);

    const { socket } = await openSocket(two.url, sessionAuth(owner, owner.domain));
    sockets.push(socket!);
    const pushes: CardPush[] = [];
    socket!.on(CARD_LIVE.event, (p: CardPush) => pushes.push(p));
    const ack = await ask(socket!, 'subscribe', {
      channel: CARD_LIVE.channel,
      params: { dashboard_id: added.body.id },
    });
    expect(ack.response_result).toBe(0);
    expect(await until(() => pushes.some((p) => p.key === 'daya'))).toBe(true);

    // the writer queue group spreads messages over both gateways: publish until gateway one (not the viewer's) has
    // stored some itself; each of those values must reach the viewer on gateway two all the same (one value at a time:
    // the live push coalesces a card's updates within 100 ms)
    const storedBy = (gw: Running) => (gw.app.telemetry.metrics() as { stored_points: number }).stored_points;
    const byOne: number[] = [];
    for (let v = 100; v < 140 && byOne.length < 2; v++) {
      const [before1, before2] = [storedBy(one), storedBy(two)];
      await meter.client.publishAsync(`d/${id}/data`, JSON.stringify({ pm: { meter: { power: v } } }), { qos: 1 });
      expect(await until(() => storedBy(one) + storedBy(two) > before1 + before2)).toBe(true);
      if (storedBy(one) > before1) byOne.push(v);
      expect(
        await until(() => pushes.some((p) => p.key === 'daya' && p.data.value === v)),
        `value ${v} stored by ${storedBy(one) > before1 ? 'the other' : 'the same'} gateway`,
      ).toBe(true);
    }
    expect(byOne.length).toBeGreaterThan(0);
  });

  it('acknowledges a QoS 1 publish only after a gateway of the queue group stored it, whichever gateway that is', async () => {
    const owner = await tenantWithApp(one.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const meter = await mqttDevice(one, auth, clients);
    const storedBy = (gw: Running) => (gw.app.telemetry.metrics() as { stored_points: number }).stored_points;
    const reportsFrom = (gw: Running) =>
      (gw.app.telemetry.metrics() as { remote_acks_sent?: number }).remote_acks_sent ?? 0;
    const [reportsBefore, twoBefore] = [reportsFrom(two), storedBy(two)];
    for (let v = 0; v < 24; v++) {
      const before = storedBy(one) + storedBy(two);
      await meter.client.publishAsync(`d/${meter.device.id}/data`, JSON.stringify({ pm: { meter: { power: v } } }), {
        qos: 1,
      });
      // the PUBACK came: the point is stored already, not merely handed to NATS
      expect(storedBy(one) + storedBy(two), `publish ${v}`).toBeGreaterThan(before);
    }
    // the queue group spread them: gateway two stored some of gateway one's device and reported their commits back
    expect(storedBy(two)).toBeGreaterThan(twoBefore);
    expect(reportsFrom(two)).toBeGreaterThan(reportsBefore);
    expect((one.app.telemetry.metrics() as { remote_acks_waiting: number }).remote_acks_waiting).toBe(0);
  });

  it('a device given a new secret or removed through one gateway is disconnected from the other at once', async () => {
    const owner = await tenantWithApp(one.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const [rotated, removed] = [await mqttDevice(one, auth, clients), await mqttDevice(one, auth, clients)];
    const closes = (c: MqttClient) => new Promise<number>((resolve) => c.once('close', () => resolve(Date.now())));
    const rotatedClosed = closes(rotated.client);
    const removedClosed = closes(removed.client);
    const asked = Date.now();
    const secret = await call(two.url, devicesContract.brokerSecretRegenerate, { id: rotated.device.id }, auth);
    expect(secret.body.response_result).toBe(0);
    const gone = await call(two.url, deviceFamilyCalls.mqtt!.remove, { id: removed.device.id }, auth);
    expect(gone.body.response_result).toBe(0);
    // gateway one holds both connections; before, only a change made through gateway one ended them
    const ended = await Promise.race([
      Promise.all([rotatedClosed, removedClosed]),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
    ]);
    expect(ended, 'both connections to gateway one closed').not.toBeNull();
    console.log(`scale-out kick: ${Math.max(...ended!) - asked} ms after the first call`);
  });

  it('a gateway starting beside another leaves the devices that gateway holds online, and only those', async () => {
    const owner = await tenantWithApp(one.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const held = await mqttDevice(one, auth, clients);
    // a device a crashed gateway left "online"
    const ghost = await addDevice(one.url, auth, 'mqtt');
    await one.app.store.exec(
      sql`UPDATE devices SET online = 1, last_online_ts = ${Date.now() - 60_000} WHERE id = ${ghost.id}`,
    );
    const three = await startGateway(scale.env);
    try {
      const online = (id: number) => onlineOf(one, id);
      // the gather window is PRESENCE_GATHER_MS on an idle machine; counted in turns of the event loop, it takes
      // longer on a starved one
      expect(await until(async () => (await online(ghost.id)) === 0, PRESENCE_GATHER_MS + 10_000)).toBe(true);
      expect(await online(held.device.id)).toBe(1);
    } finally {
      await three.app.close();
    }
  });
});
