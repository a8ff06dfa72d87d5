// The broker's state across gateways (issue 37): two gateways on one PostgreSQL database and one NATS server
// (BUS=nats, separate data directories). A retained message published through one reaches subscribers of the other at
// once and after it restarts; an empty one deletes it everywhere; a persistent session that left one gateway returns
// to the other with what was published through either meanwhile; a client id connected to one then to the other is
// taken over (the first connection ends, the second has its subscriptions).
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { cardsContract, deviceFamilyCalls, devicesContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDashboard, addDevice, latestPower, mqttAttempt, tenantWithApp, unique, until } from './fixtures.js';
import { hasNatsServer, startNatsServer, type NatsServer } from '../src/platform/bus/testing/nats-server.js';
import { hasPostgres, testDatabase } from '../src/platform/db/testing/postgres.js';
import type { AppAuth } from './device-data.kit.js';

const clients: MqttClient[] = [];
afterEach(() => {
  clients.splice(0).forEach((c) => c.end(true));
});

function connect(port: number, opts: IClientOptions) {
  return new Promise<{ client: MqttClient; sessionPresent: boolean; got: string[] }>((resolve, reject) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
    clients.push(client);
    // wired before CONNACK: queued messages follow it at once
    const got: string[] = [];
    client.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
    client.once('connect', (connack) => resolve({ client, sessionPresent: connack.sessionPresent, got }));
    client.once('error', reject);
  });
}

/**
 * A gateway's link to NATS that the test can cut: a TCP relay on a free loopback port. Cut, its connections are
 * dropped and new ones refused (closed at once) until it is restored; the NATS server itself runs on for the others.
 */
async function natsLink(natsPort: number) {
  let cut = false;
  const open = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    if (cut) return void inbound.destroy();
    const outbound = net.connect({ port: natsPort, host: '127.0.0.1' });
    for (const [from, to] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      open.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => (open.delete(from), to.destroy()));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const drop = () => {
    cut = true;
    for (const s of open) s.destroy();
  };
  return {
    url: `nats://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    cut: drop,
    restore() {
      cut = false;
    },
    close: () => new Promise<void>((resolve) => (drop(), server.close(() => resolve()))),
  };
}

describe.skipIf(!hasNatsServer || !hasPostgres)('the broker across gateways (BUS=nats, PostgreSQL)', () => {
  let nats: NatsServer;
  let env: Record<string, string>;
  let a: Running;
  let b: Running;
  let auth: AppAuth;

  beforeAll(async () => {
    nats = await startNatsServer();
    env = { BUS: 'nats', NATS_URL: nats.url, DATABASE_URL: await testDatabase(), MQTT_THREADS: '2' };
    a = await startGateway(env);
    b = await startGateway(env);
    const owner = await tenantWithApp(a.url);
    auth = { tenant: owner.tenant, domain: owner.domain };
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await nats?.stop();
  });

  async function device() {
    const d = await addDevice(a.url, auth, 'mqtt');
    return { id: d.id as number, login: { username: d.store_mqtt_username, password: d.store_mqtt_password } };
  }

  it('delivers a retained message published through A to B at once, keeps it there across a restart, and deletes it everywhere', async () => {
    const { id, login } = await device();
    const topic = `d/${id}/status`;
    const live = await connect(b.mqttPort, { ...login, clientId: unique('lihat'), protocolVersion: 5 });
    await live.client.subscribeAsync(topic, { qos: 1 });
    const pub = await connect(a.mqttPort, { ...login, clientId: unique('kirim'), protocolVersion: 4 });
    await pub.client.publishAsync(topic, 'hidup', { qos: 1, retain: true });
    // live on B
    expect(await until(() => live.got.length > 0, 3000)).toBe(true);
    expect(live.got).toEqual([`${topic} hidup`]);
    // kept by B: a later subscriber there gets it as retained
    const later = await connect(b.mqttPort, { ...login, clientId: unique('nanti'), protocolVersion: 4 });
    await later.client.subscribeAsync(topic, { qos: 1 });
    expect(await until(() => later.got.length > 0, 3000)).toBe(true);
    expect(later.got).toEqual([`${topic} hidup`]);

    // B restarts: loaded from the database
    await b.stop();
    b = await startGateway(env);
    const fresh = await connect(b.mqttPort, { ...login, clientId: unique('baru'), protocolVersion: 5 });
    await fresh.client.subscribeAsync(topic, { qos: 1 });
    expect(await until(() => fresh.got.length > 0, 3000)).toBe(true);
    expect(fresh.got).toEqual([`${topic} hidup`]);

    // an empty retained publish on A deletes it on B: its live subscriber hears the empty message, a new one nothing
    await pub.client.publishAsync(topic, '', { qos: 1, retain: true });
    expect(await until(() => fresh.got.length === 2, 3000)).toBe(true);
    const after = await connect(b.mqttPort, { ...login, clientId: unique('kosong'), protocolVersion: 4 });
    await after.client.subscribeAsync(topic, { qos: 1 });
    // the retained copy, had it stayed, comes right after SUBACK: a publish through B after it marks the end
    await b.app.broker.publish(topic, 'penanda', { qos: 1 });
    expect(await until(() => after.got.length > 0, 3000)).toBe(true);
    expect(after.got).toEqual([`${topic} penanda`]);
  });

  for (const protocolVersion of [4, 5] as const) {
    it(`hands a session that left A back on B with what was published through A and B meanwhile (MQTT ${protocolVersion === 4 ? '3.1.1' : '5'})`, async () => {
      const { id, login } = await device();
      const persistent: IClientOptions = {
        ...login,
        clientId: unique('sesi'),
        protocolVersion,
        clean: false,
        ...(protocolVersion === 5 && { properties: { sessionExpiryInterval: 600 } }),
      };
      const awayA = a.app.broker.metrics().away_sessions ?? 0;
      const awayB = b.app.broker.metrics().away_sessions ?? 0;
      const first = await connect(a.mqttPort, persistent);
      await first.client.subscribeAsync([`d/${id}/cmd`, `d/${id}/status`], { qos: 1 });
      await first.client.endAsync();
      // away on A, and known away on B
      expect(await until(() => a.app.broker.metrics().away_sessions === awayA + 1, 3000)).toBe(true);
      expect(await until(() => b.app.broker.metrics().away_sessions === awayB + 1, 3000)).toBe(true);

      // meanwhile: the gateway's command through A, a client's QoS 1 publish through B (QoS 0 is not queued)
      await a.app.broker.publish(`d/${id}/cmd`, 'dari-a', { qos: 1 });
      const other = await connect(b.mqttPort, { ...login, clientId: unique('lain'), protocolVersion: 4 });
      await other.client.publishAsync(`d/${id}/status`, 'dari-b', { qos: 1 });
      await other.client.publishAsync(`d/${id}/status`, 'qos-0', { qos: 0 });

      const back = await connect(b.mqttPort, { ...persistent, clean: false });
      expect(back.sessionPresent).toBe(true);
      expect(await until(() => back.got.length >= 2, 3000)).toBe(true);
      expect(back.got.sort()).toEqual([`d/${id}/cmd dari-a`, `d/${id}/status dari-b`]);
      // its subscriptions came with it: a new command through B reaches it without subscribing again
      await b.app.broker.publish(`d/${id}/cmd`, 'sesudah', { qos: 1 });
      expect(await until(() => back.got.length === 3, 3000)).toBe(true);
      // taken: neither gateway keeps it away any more
      expect(await until(() => a.app.broker.metrics().away_sessions === awayA, 3000)).toBe(true);
      expect(b.app.broker.metrics().away_sessions).toBe(awayB);
    });
  }

  it('takes over a client id connected to A when it connects to B: A ends its connection, B has its subscriptions', async () => {
    const { id, login } = await device();
    const persistent: IClientOptions = { ...login, clientId: unique('alih'), protocolVersion: 5, clean: false };
    persistent.properties = { sessionExpiryInterval: 600 };
    const heldBefore = b.app.broker.metrics().cluster_held_elsewhere ?? 0;
    const onA = await connect(a.mqttPort, persistent);
    await onA.client.subscribeAsync(`d/${id}/cmd`, { qos: 1 });
    let closed = false;
    onA.client.on('close', () => (closed = true));
    // B hears that A holds it
    const key = `device:${id}`;
    expect(await until(() => a.app.broker.connected().some((i) => i.key === key), 3000)).toBe(true);
    expect(await until(() => (b.app.broker.metrics().cluster_held_elsewhere ?? 0) > heldBefore, 3000)).toBe(true);

    const onB = await connect(b.mqttPort, persistent);
    expect(await until(() => closed, 3000)).toBe(true);
    expect(onB.sessionPresent).toBe(true);
    expect(await until(() => !a.app.broker.connected().some((i) => i.key === key), 3000)).toBe(true);
    // announced on B once its session is restored (a publish racing aedes' restore may be sent twice, as alone)
    expect(await until(() => b.app.broker.connected().some((i) => i.key === key), 3000)).toBe(true);
    await b.app.broker.publish(`d/${id}/cmd`, 'di-b', { qos: 1 });
    expect(await until(() => onB.got.length > 0, 3000)).toBe(true);
    expect(onB.got).toEqual([`d/${id}/cmd di-b`]);
    // nobody queues for it while it is connected on B
    expect(a.app.broker.awaits?.(`d/${id}/cmd`)).toBe(false);
  });

  it('a gateway started after a client connected elsewhere knows it holds its id: the client connecting there takes it over', async () => {
    const { login } = await device();
    const clientId = unique('lama');
    const onA = await connect(a.mqttPort, { ...login, clientId, protocolVersion: 4 });
    let closed = false;
    onA.client.on('close', () => (closed = true));
    expect(await until(() => (b.app.broker.metrics().cluster_held_elsewhere ?? 0) > 0, 3000)).toBe(true);
    // a gateway that starts now (a restart, a scale-up) never saw A's notice of that connection
    const c = await startGateway(env);
    try {
      // told at its start, not when the beats show the counts differ (two beats, 4 s)
      expect(
        await until(() => c.app.broker.metrics().cluster_held_elsewhere === a.app.broker.connected().length, 1500),
      ).toBe(true);
      await connect(c.mqttPort, { ...login, clientId, protocolVersion: 4 });
      // one connection per client id in the deployment (MQTT-3.1.4-2): A's ends
      expect(await until(() => closed, 3000)).toBe(true);
    } finally {
      await c.stop();
    }
  });

  it('lets a gateway registered through A sign in on A at once while its unclaimed connection on B is still ending', async () => {
    const uid = unique('ZL').toUpperCase();
    const unclaimed = await connect(b.mqttPort, { clientId: uid, username: uid });
    let kicked = false;
    unclaimed.client.on('close', () => (kicked = true));
    await unclaimed.client.publishAsync(`gw/${uid}/up`, '{}', { qos: 1 });
    // A knows every client id B holds, the unclaimed gateway's among them
    const heldByB = () => b.app.broker.connected().length;
    expect(await until(() => b.app.broker.connected().some((i) => i.key === `gateway:${uid}`), 3000)).toBe(true);
    expect(await until(() => a.app.broker.metrics().cluster_held_elsewhere === heldByB(), 3000)).toBe(true);
    // the wizard's UID check through A answers "heard" once B's sighting is written (B does not hold the PUBACK for it)
    const heard = async () =>
      (await call(a.url, deviceFamilyCalls.zlan.check!, { dev_uid: uid }, auth)).body.response_result === 0;
    expect(await until(heard)).toBe(true);
    // NATS frozen: B hears of the registration, and A of B's connection ending, only after the sign-in below
    nats.pause();
    let registered: Awaited<ReturnType<typeof mqttAttempt>>;
    try {
      const added = await call(
        a.url,
        deviceFamilyCalls.zlan.adds.zlan!,
        { serial_number: unique('Z'), name: 'ZLAN Gedung B', dev_uid: uid },
        auth,
      );
      expect(added.body.response_result).toBe(0);
      // the claim frees the client id on A at once: the registered identity takes it
      expect(a.app.broker.metrics().cluster_held_elsewhere).toBe(heldByB() - 1);
      registered = await mqttAttempt(a.mqttPort, {
        clientId: uid,
        username: uid,
        password: added.body.data.gateway_secret,
      });
      if (registered.client) clients.push(registered.client);
      expect(registered.code).toBeUndefined();
      expect(kicked).toBe(false);
    } finally {
      nats.resume();
    }
    expect(await until(() => kicked, 5000)).toBe(true);
    expect((await registered.client!.subscribeAsync(`gw/${uid}/down`))[0]!.qos).toBe(0);
  });

  it('mends what a gateway missed while its NATS connection was down: it serves the retained message and the latest value, queues for the session that went away meanwhile, and ends the connections of devices changed meanwhile', async () => {
    const { id, login } = await device();
    const topic = `d/${id}/status`;
    const pub = await connect(b.mqttPort, { ...login, clientId: unique('terbit'), protocolVersion: 4 });
    await pub.client.publishAsync(topic, 'lama', { qos: 1, retain: true });
    const power = (value: number) =>
      pub.client.publishAsync(`d/${id}/data`, JSON.stringify({ pm: { meter: { power: value } } }), { qos: 1 });
    await power(10);
    const latest = latestPower(id);
    const dashboardId = await addDashboard(a.url, auth, unique('Daya'), {
      version: '2',
      config: { refresh: 0 },
      var: {},
      dashboard: { daya: { key: 'daya', cat: 'SINGLE_VALUE_CARD', x: 0, y: 0, w: 1, h: 1, model: { value: latest } } },
    });
    const cardOnA = async () =>
      (await call(a.url, cardsContract.get, { dashboardId, componentKey: 'daya' }, auth)).body.value as number;
    // A again, its NATS connection through a link the test can cut
    const link = await natsLink(nats.port);
    try {
      await a.stop();
      a = await startGateway({ ...env, NATS_URL: link.url });
      expect(await until(() => a.app.broker.metrics().cluster_gateways === 1, 5000)).toBe(true);
      const resyncs = a.app.broker.metrics().cluster_resyncs ?? 0;
      // three devices connected to A: one will get a new secret and one be removed through B, one left alone
      const [rotated, removed, kept] = [await device(), await device(), await device()];
      const onA = await Promise.all(
        [rotated, removed, kept].map((d) => connect(a.mqttPort, { ...d.login, clientId: unique('alat') })),
      );
      const closed = onA.map(({ client }) => {
        let at = false;
        client.once('close', () => (at = true));
        return () => at;
      });

      // A answers the card from its memory of the latest values
      expect(await cardOnA()).toBe(10);

      link.cut();
      // through B while A hears nothing: the device's power (stored by B), the retained message changes, and a
      // persistent session goes away
      await power(20);
      await pub.client.publishAsync(topic, 'baru', { qos: 1, retain: true });
      const persistent: IClientOptions = {
        ...login,
        clientId: unique('pergi'),
        protocolVersion: 5,
        clean: false,
        properties: { sessionExpiryInterval: 600 },
      };
      const first = await connect(b.mqttPort, persistent);
      await first.client.subscribeAsync(`d/${id}/cmd`, { qos: 1 });
      await first.client.endAsync();
      expect(await until(() => (b.app.broker.metrics().away_sessions ?? 0) > 0, 3000)).toBe(true);
      const secret = await call(b.url, devicesContract.brokerSecretRegenerate, { id: rotated.id }, auth);
      expect(secret.body.response_result).toBe(0);
      const gone = await call(b.url, deviceFamilyCalls.mqtt!.remove, { id: removed.id }, auth);
      expect(gone.body.response_result).toBe(0);
      await new Promise((r) => setTimeout(r, 300));
      // unheard on A: their connections there are still up
      expect(closed.map((c) => c())).toEqual([false, false, false]);
      link.restore();
      // nats.js reconnects by itself (within its 2 s pause): A mends its copies from the database
      expect(await until(() => (a.app.broker.metrics().cluster_resyncs ?? 0) > resyncs, 10_000)).toBe(true);
      expect(await until(() => (a.app.broker.metrics().cluster_resync_retained ?? 0) > 0, 5000)).toBe(true);

      // the card through A answers the value stored through B meanwhile
      expect(await until(async () => (await cardOnA()) === 20, 5000)).toBe(true);
      // a subscriber on A gets the retained message as it is now
      const later = await connect(a.mqttPort, { ...login, clientId: unique('nanti'), protocolVersion: 4 });
      await later.client.subscribeAsync(topic, { qos: 1 });
      expect(await until(() => later.got.length > 0, 3000)).toBe(true);
      expect(later.got).toEqual([`${topic} baru`]);
      // a command through A waits for the session that went away from B: it gets it when it returns to B
      await a.app.broker.publish(`d/${id}/cmd`, 'lewat-a', { qos: 1 });
      const back = await connect(b.mqttPort, persistent);
      expect(back.sessionPresent).toBe(true);
      expect(await until(() => back.got.length > 0, 3000)).toBe(true);
      expect(back.got).toEqual([`d/${id}/cmd lewat-a`]);
      // the device with a new secret and the removed one are disconnected from A; the other stays
      expect(await until(() => closed[0]!() && closed[1]!(), 5000)).toBe(true);
      expect(closed[2]!()).toBe(false);
    } finally {
      await a.stop();
      a = await startGateway(env);
      await link.close();
    }
  });

  it("routes a client's plain publish only to the gateway whose client subscribes to it", async () => {
    const { id, login } = await device();
    const before = a.app.broker.metrics().cluster_remote_filters ?? 0;
    const sub = await connect(b.mqttPort, { ...login, clientId: unique('langgan'), protocolVersion: 5 });
    await sub.client.subscribeAsync(`d/${id}/status`, { qos: 1 });
    // A hears of B's new interest
    expect(await until(() => (a.app.broker.metrics().cluster_remote_filters ?? 0) > before, 3000)).toBe(true);
    const pub = await connect(a.mqttPort, { ...login, clientId: unique('terbit'), protocolVersion: 4 });
    const routed = a.app.broker.metrics().cluster_routed ?? 0;
    // telemetry nobody subscribes to stays on A
    await pub.client.publishAsync(`d/${id}/data`, '{"t":1}', { qos: 1 });
    await pub.client.publishAsync(`d/${id}/status`, 'ada', { qos: 1 });
    expect(await until(() => sub.got.length > 0, 3000)).toBe(true);
    expect(sub.got).toEqual([`d/${id}/status ada`]);
    expect(a.app.broker.metrics().cluster_routed).toBe(routed + 1);
    // gone from B: no longer routed
    await sub.client.unsubscribeAsync(`d/${id}/status`);
    expect(await until(() => (a.app.broker.metrics().cluster_remote_filters ?? 0) === before, 3000)).toBe(true);
    await pub.client.publishAsync(`d/${id}/status`, 'lagi', { qos: 1 });
    expect(a.app.broker.metrics().cluster_routed).toBe(routed + 1);
  });
});
