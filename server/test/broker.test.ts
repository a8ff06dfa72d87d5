// The embedded MQTT broker with real MQTT.js clients: authentication by authorities, topic authorisation, garbage on
// the wire, MQTT over WebSocket on the HTTP port, and kicking clients.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { WebSocket } from 'ws';
import { startGateway, type Running } from './harness.js';
import { createBroker } from '../src/platform/mqtt/broker.js';
import type { BrokerAuthority, MqttIdentity } from '../src/platform/mqtt/types.js';
import { createLogger } from '../src/platform/log.js';
import { eventually } from '../src/platform/testing/until.js';

/** the broker's mode: the fast path, or aedes as it is (MQTT_FAST_PATH=off, project `plain-aedes`) */
const fastPath = process.env.MQTT_FAST_PATH !== 'off';

type Attempt = { client: MqttClient; code?: undefined } | { client?: undefined; code: number | string };

/** Connects once (no reconnect) and answers the client, or the CONNACK refusal code. */
function attempt(url: string, opts: IClientOptions = {}): Promise<Attempt> {
  return new Promise((resolve) => {
    const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 3000, ...opts });
    client.once('connect', () => resolve({ client }));
    client.once('error', (err) => {
      client.end(true);
      resolve({ code: (err as { code?: number }).code ?? err.message });
    });
    client.once('close', () => resolve({ code: 'closed' }));
  });
}

async function connected(url: string, opts: IClientOptions): Promise<MqttClient> {
  const a = await attempt(url, opts);
  if (!a.client) throw new Error(`refused: ${a.code}`);
  return a.client;
}

/** Devices `dev<N>` may use topics under d/<N>/ only; `boom` makes the authority throw. */
const devices: BrokerAuthority = {
  authenticate(_clientId, username, password) {
    if (username === 'boom') throw new Error('authority database unreachable');
    const m = /^dev(\d+)$/.exec(username ?? '');
    return m && password?.toString() === 'rahasia' ? { key: `device:${m[1]}`, appId: 1 } : null;
  },
  authorizePublish: (id, topic) => topic.startsWith(`d/${id.key.slice(7)}/`),
  authorizeSubscribe: (id, topic) => topic.startsWith(`d/${id.key.slice(7)}/`),
};
/** A watcher (like a LoRa network server integration) known by a second authority, allowed to watch every device. */
const watchers: BrokerAuthority = {
  authenticate: (_c, username) => (username === 'watcher' ? { key: 'ns:1' } : null),
  authorizePublish: () => false,
  authorizeSubscribe: (_id, topic) => topic.startsWith('d/'),
};

describe('MQTT broker', () => {
  let gw: Running;
  let url: string;
  const events: string[] = [];
  const messages: Array<{ key: string; topic: string; payload: string }> = [];
  const open: MqttClient[] = [];
  const track = (c: MqttClient) => (open.push(c), c);

  beforeAll(async () => {
    // two broker threads: every test here also holds across threads (the kernel spreads the connections)
    gw = await startGateway({ MQTT_THREADS: '2' });
    url = `mqtt://127.0.0.1:${gw.mqttPort}`;
    gw.app.broker.addAuthority(devices);
    gw.app.broker.addAuthority(watchers);
    gw.app.broker.on('connected', (id) => void events.push(`+${id.key}`));
    gw.app.broker.on('disconnected', (id) => void events.push(`-${id.key}`));
    gw.app.broker.on(
      'message',
      (id, topic, payload) => void messages.push({ key: id.key, topic, payload: payload.toString() }),
    );
  });
  afterAll(async () => {
    for (const c of open) c.end(true);
    await gw.stop();
  });

  it('listens on an ephemeral TCP port and exposes it', () => {
    expect(gw.mqttPort).toBeGreaterThan(0);
    expect(gw.app.broker.port).toBe(gw.mqttPort);
  });

  it('accepts a client an authority knows and announces it', async () => {
    const c = track(await connected(url, { username: 'dev1', password: 'rahasia', clientId: 'dev1-a' }));
    expect(c.connected).toBe(true);
    await eventually(() => expect(events).toContain('+device:1'));
    expect(gw.app.broker.connected().map((i) => i.key)).toContain('device:1');
  });

  it('refuses anonymous clients with CONNACK 5 (not authorised)', async () => {
    expect((await attempt(url, { clientId: 'anon' })).code).toBe(5);
  });

  it('refuses a client no authority knows, and a wrong password, with CONNACK 5', async () => {
    expect((await attempt(url, { username: 'stranger', password: 'x' })).code).toBe(5);
    expect((await attempt(url, { username: 'dev1', password: 'salah' })).code).toBe(5);
  });

  it("refuses a client that takes another identity's client id, and lets the same identity take its own over", async () => {
    const departures = () => events.filter((e) => e === '-device:2').length;
    const before = departures();
    const victim = track(await connected(url, { username: 'dev2', password: 'rahasia', clientId: 'shared-id' }));
    expect((await attempt(url, { username: 'dev3', password: 'rahasia', clientId: 'shared-id' })).code).toBe(5);
    expect(victim.connected).toBe(true);
    const again = track(await connected(url, { username: 'dev2', password: 'rahasia', clientId: 'shared-id' }));
    expect(again.connected).toBe(true);
    await eventually(() => expect(victim.connected).toBe(false));
    again.end(true);
    // both connections reported gone (the broker threads report a departure a moment after the socket closes)
    await eventually(() => expect(departures()).toBe(before + 2));
    expect(gw.app.broker.connected().map((i) => i.key)).not.toContain('device:2');
    // once the id is free, anyone known may use it
    const later = track(await connected(url, { username: 'dev3', password: 'rahasia', clientId: 'shared-id' }));
    expect(later.connected).toBe(true);
  });

  it('serves connections on several threads as one broker: publishes reach every subscriber, take-overs close the older connection', async () => {
    expect(gw.app.broker.threads).toBeGreaterThan(1);
    // the kernel spreads connections over the threads: with eight watchers some share the device's thread and some do not
    const got: string[][] = [];
    for (let i = 0; i < 8; i++) {
      const w = track(await connected(url, { username: 'watcher', clientId: `spread-${i}` }));
      const mine: string[] = [];
      got.push(mine);
      w.on('message', (topic, payload) => mine.push(`${topic} ${payload}`));
      await w.subscribeAsync('d/41/#');
    }
    const dev = track(await connected(url, { username: 'dev41', password: 'rahasia' }));
    for (let n = 0; n < 3; n++) await dev.publishAsync('d/41/data', `{"n":${n}}`, { qos: (n % 2) as 0 | 1 });
    await eventually(() => expect(got).toEqual(got.map(() => [0, 1, 2].map((n) => `d/41/data {"n":${n}}`))));
    // a gateway publish reaches the device wherever it is
    const cmds: string[] = [];
    dev.on('message', (topic) => cmds.push(topic));
    await dev.subscribeAsync('d/41/cmd');
    await gw.app.broker.publish('d/41/cmd', '{}', { qos: 1 });
    await eventually(() => expect(cmds).toEqual(['d/41/cmd']));
    // the same client id again and again: each new connection takes over the previous one, on its thread or another
    let previous = track(await connected(url, { username: 'dev42', password: 'rahasia', clientId: 'roaming' }));
    for (let i = 0; i < 6; i++) {
      const next = track(await connected(url, { username: 'dev42', password: 'rahasia', clientId: 'roaming' }));
      const older = previous;
      await eventually(() => expect(older.connected).toBe(false));
      expect(next.connected).toBe(true);
      previous = next;
    }
    await eventually(() => expect(gw.app.broker.connected().filter((i) => i.key === 'device:42')).toHaveLength(1));
  });

  it('stops reading device sockets while paused and delivers what waited once resumed', async () => {
    const c = track(await connected(url, { username: 'dev8', password: 'rahasia', clientId: 'dev8-pause' }));
    await eventually(() => expect(events).toContain('+device:8'));
    gw.app.broker.setReadPaused(true);
    expect(gw.app.broker.readPaused).toBe(true);
    c.publish('d/8/data', 'while paused');
    // the publish would reach the gateway within 300 ms; its socket is not read, so nothing can say it was not
    await new Promise((r) => setTimeout(r, 300));
    expect(messages.some((m) => m.payload === 'while paused')).toBe(false);
    expect(c.connected).toBe(true);
    gw.app.broker.setReadPaused(false);
    await eventually(() =>
      expect(messages.some((m) => m.key === 'device:8' && m.payload === 'while paused')).toBe(true),
    );
  });

  it('keeps reading a device paused in the middle of its batch (as the telemetry writer does) once resumed', async () => {
    const c = track(await connected(url, { username: 'dev7', password: 'rahasia', clientId: 'dev7-burst' }));
    await eventually(() => expect(events).toContain('+device:7'));
    const got = () => messages.filter((m) => m.key === 'device:7' && m.payload.startsWith('burst')).length;
    // pause from inside the broker's message handler, while the rest of the socket's batch is still being handled
    let paused = false;
    gw.app.broker.on('message', (identity) => {
      if (paused || identity.key !== 'device:7') return;
      paused = true;
      gw.app.broker.setReadPaused(true);
      setTimeout(() => gw.app.broker.setReadPaused(false), 200);
    });
    await Promise.all(Array.from({ length: 20 }, (_, i) => c.publishAsync('d/7/data', `burst ${i}`, { qos: 1 })));
    await eventually(() => expect(got()).toBe(20));
    await Promise.all(Array.from({ length: 5 }, (_, i) => c.publishAsync('d/7/data', `burst after ${i}`, { qos: 1 })));
    await eventually(() => expect(got()).toBe(25));
  });

  it('refuses with CONNACK 3 when an authority throws, and keeps serving', async () => {
    expect((await attempt(url, { username: 'boom', password: 'x' })).code).toBe(3);
    const c = track(await connected(url, { username: 'dev9', password: 'rahasia' }));
    expect(c.connected).toBe(true);
  });

  it('delivers an authorised publish and reports it as a message of the publishing identity', async () => {
    const watcher = track(await connected(url, { username: 'watcher', clientId: 'watcher-1' }));
    const got: string[] = [];
    watcher.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
    await watcher.subscribeAsync('d/#');
    const dev = track(await connected(url, { username: 'dev2', password: 'rahasia' }));
    await dev.publishAsync('d/2/data', '{"t":21}', { qos: 1 });
    await eventually(() => expect(got).toEqual(['d/2/data {"t":21}']));
    expect(messages).toContainEqual({ key: 'device:2', topic: 'd/2/data', payload: '{"t":21}' });
  });

  it("takes a device's repeated publishes the short way (acknowledged, in order) and still delivers them once someone subscribes", async () => {
    const dev = track(await connected(url, { username: 'dev31', password: 'rahasia' }));
    // the first publish on a topic asks the authority; the next ones are the thread's own (no subscriber: short path)
    for (let i = 0; i < 5; i++) await dev.publishAsync('d/31/data', `{"n":${i}}`, { qos: (i % 2) as 0 | 1 });
    await eventually(() =>
      expect(messages.filter((m) => m.topic === 'd/31/data').map((m) => m.payload)).toEqual(
        [0, 1, 2, 3, 4].map((i) => `{"n":${i}}`),
      ),
    );
    // retained: aedes' way, and a later subscriber gets it
    await dev.publishAsync('d/31/state', 'tetap', { qos: 1, retain: true });
    const watcher = track(await connected(url, { username: 'watcher', clientId: 'watcher-31' }));
    const got: string[] = [];
    watcher.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
    await watcher.subscribeAsync('d/31/#');
    await eventually(() => expect(got).toEqual(['d/31/state tetap']));
    // with a subscriber the same topic goes through aedes again: delivered to the watcher and reported
    await dev.publishAsync('d/31/data', '{"n":5}', { qos: 1 });
    await eventually(() => expect(got).toEqual(['d/31/state tetap', 'd/31/data {"n":5}']));
    expect(messages.filter((m) => m.key === 'device:31').map((m) => m.payload)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `{"n":${i}}`).concat(['tetap', '{"n":5}']),
    );
    // an empty retained publish clears it (later tests subscribe to d/#)
    await dev.publishAsync('d/31/state', '', { qos: 1, retain: true });
  });

  it('drops a publish outside the identity (QoS 0, 1 and 2 acknowledged), counts it for that identity and keeps the connection', async () => {
    const watcher = track(await connected(url, { username: 'watcher', clientId: 'watcher-2' }));
    const got: string[] = [];
    watcher.on('message', (topic) => got.push(topic));
    await watcher.subscribeAsync('d/#');
    const dev = track(await connected(url, { username: 'dev3', password: 'rahasia' }));
    let closed = false;
    dev.once('close', () => void (closed = true));
    const before = gw.app.broker.metrics();
    await dev.publishAsync('d/4/data', 'menyusup', { qos: 0 });
    await dev.publishAsync('d/4/data', 'menyusup', { qos: 1 });
    await dev.publishAsync('d/4/state', 'menyusup', { qos: 2 });
    await eventually(() =>
      expect(gw.app.broker.metrics().dropped_publishes_by_client['device:3']).toBe(
        (before.dropped_publishes_by_client['device:3'] ?? 0) + 3,
      ),
    );
    expect(gw.app.broker.metrics().dropped_publishes).toBe(before.dropped_publishes + 3);
    // its own topic still works on the same connection
    await dev.publishAsync('d/3/data', 'sah', { qos: 1 });
    await eventually(() => expect(got).toEqual(['d/3/data']));
    expect(messages.some((m) => m.topic === 'd/4/data' || m.topic === 'd/4/state')).toBe(false);
    expect(closed).toBe(false);
  });

  it('answers SUBACK 128 for a subscription outside the identity and keeps the connection', async () => {
    const dev = track(await connected(url, { username: 'dev5', password: 'rahasia' }));
    // MQTT.js reports any 128 as an error that carries the SUBACK
    const suback = await dev.subscribeAsync(['d/5/cmd', 'd/6/cmd', '$SYS/#']).then(
      (granted) => granted.map((g) => g.qos),
      (err: { packet?: { granted?: number[] } }) => err.packet?.granted,
    );
    expect(suback).toEqual([0, 128, 128]);
    expect(dev.connected).toBe(true);
  });

  it('asks the authority that issued the identity (the watcher may subscribe where devices may not)', async () => {
    const watcher = track(await connected(url, { username: 'watcher', clientId: 'watcher-3' }));
    expect((await watcher.subscribeAsync('d/77/data')).map((g) => g.qos)).toEqual([0]);
  });

  it('publishes from the gateway to devices without reporting it as a device message', async () => {
    const dev = track(await connected(url, { username: 'dev7', password: 'rahasia' }));
    const got: string[] = [];
    dev.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
    await dev.subscribeAsync('d/7/cmd');
    await gw.app.broker.publish('d/7/cmd', JSON.stringify({ id: 'c1' }), { qos: 1 });
    await eventually(() => expect(got).toEqual(['d/7/cmd {"id":"c1"}']));
    expect(messages.some((m) => m.topic === 'd/7/cmd')).toBe(false);
  });

  it('survives garbage bytes on the TCP port', async () => {
    for (const garbage of [
      Buffer.from('GET / HTTP/1.1\r\n\r\n'),
      Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x7f]),
      Buffer.from([0x30, 0x02, 0x00, 0x05]),
    ]) {
      const sock = net.connect({ host: '127.0.0.1', port: gw.mqttPort });
      sock.on('error', () => undefined);
      await new Promise((r) => sock.once('connect', r));
      sock.write(garbage);
      await new Promise((r) => {
        sock.once('close', r);
        setTimeout(() => (sock.destroy(), r(null)), 1000);
      });
    }
    const c = track(await connected(url, { username: 'dev8', password: 'rahasia' }));
    expect(c.connected).toBe(true);
  });

  it('serves MQTT over WebSocket at /mqtt on the HTTP port', async () => {
    const wsUrl = `${gw.url.replace('http', 'ws')}/mqtt`;
    expect((await attempt(wsUrl, {})).code).toBe(5);
    const dev = track(await connected(wsUrl, { username: 'dev10', password: 'rahasia' }));
    const got: string[] = [];
    dev.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
    await dev.subscribeAsync('d/10/#');
    await dev.publishAsync('d/10/data', 'lewat-ws', { qos: 1 });
    await eventually(() => expect(got).toEqual(['d/10/data lewat-ws']));
    expect(messages).toContainEqual({ key: 'device:10', topic: 'd/10/data', payload: 'lewat-ws' });
  });

  it('sends each packet to a WebSocket client as one frame (a CONNACK, a SUBACK), not a frame per piece written', async () => {
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/mqtt`, 'mqtt');
    const frames: Buffer[] = [];
    ws.on('message', (d) => void frames.push(d as Buffer));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      ws.send(
        mqttPacket.generate({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clean: true,
          clientId: 'frames-10',
          keepalive: 30,
          username: 'dev10',
          password: Buffer.from('rahasia'),
        }),
      );
      await eventually(() => expect(frames).toHaveLength(1));
      expect([...frames[0]!]).toEqual([0x20, 2, 0, 0]);
      ws.send(mqttPacket.generate({ cmd: 'subscribe', messageId: 7, subscriptions: [{ topic: 'd/10/#', qos: 1 }] }));
      await eventually(() => expect(frames).toHaveLength(2));
      expect([...frames[1]!]).toEqual([0x90, 3, 0, 7, 1]);
    } finally {
      ws.terminate();
    }
  });

  it('kicks every client matching disconnect(match) and announces it', async () => {
    const a = track(await connected(url, { username: 'dev11', password: 'rahasia', clientId: 'dev11-a' }));
    const b = track(
      await connected(`${gw.url.replace('http', 'ws')}/mqtt`, {
        username: 'dev11',
        password: 'rahasia',
        clientId: 'dev11-b',
      }),
    );
    const other = track(await connected(url, { username: 'dev12', password: 'rahasia' }));
    const closed = Promise.all([a, b].map((c) => new Promise<void>((r) => c.once('close', () => r()))));
    expect(gw.app.broker.disconnect((id: MqttIdentity) => id.key === 'device:11')).toBe(2);
    await closed;
    await eventually(() => expect(events.filter((e) => e === '-device:11').length).toBe(2));
    expect(other.connected).toBe(true);
  });
});

describe('MQTT broker without authorities', () => {
  it('refuses every client with CONNACK 5', async () => {
    const broker = createBroker({ host: '127.0.0.1', port: 0, log: createLogger('silent'), fastPath });
    const port = await broker.listen();
    try {
      expect((await attempt(`mqtt://127.0.0.1:${port}`, { username: 'dev1', password: 'rahasia' })).code).toBe(5);
    } finally {
      await broker.close();
    }
  });

  it('refuses anonymous clients even when an authority accepts anyone', async () => {
    const broker = createBroker({ host: '127.0.0.1', port: 0, log: createLogger('silent'), fastPath });
    broker.addAuthority({
      authenticate: () => ({ key: 'anyone' }),
      authorizePublish: () => true,
      authorizeSubscribe: () => true,
    });
    const port = await broker.listen();
    try {
      expect((await attempt(`mqtt://127.0.0.1:${port}`)).code).toBe(5);
      const ok = await attempt(`mqtt://127.0.0.1:${port}`, { username: 'someone' });
      expect(ok.client?.connected).toBe(true);
      ok.client?.end(true);
    } finally {
      await broker.close();
    }
  });
});

describe('MQTT broker on one thread', () => {
  // one thread: a device and a subscriber share it, so nothing but that thread's own subscriptions delivers
  it('delivers to a subscription made after the thread had found nobody listening on that topic', async () => {
    const gw = await startGateway({ MQTT_THREADS: '1' });
    const url = `mqtt://127.0.0.1:${gw.mqttPort}`;
    const open: MqttClient[] = [];
    try {
      gw.app.broker.addAuthority(devices);
      gw.app.broker.addAuthority(watchers);
      let heard = 0;
      gw.app.broker.on('message', (_id, topic) => void (topic === 'd/32/data' && heard++));
      const watcher = await connected(url, { username: 'watcher', clientId: 'watcher-32' });
      const dev = await connected(url, { username: 'dev32', password: 'rahasia' });
      open.push(watcher, dev);
      // the first publish asks the authority, the second finds no subscriber (remembered with the session's topic)
      for (let i = 0; i < 2; i++) await dev.publishAsync('d/32/data', `{"n":${i}}`, { qos: 1 });
      await eventually(() => expect(heard).toBe(2));
      const got: string[] = [];
      watcher.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
      await watcher.subscribeAsync('d/32/data');
      await dev.publishAsync('d/32/data', '{"n":2}', { qos: 1 });
      await eventually(() => expect(got).toEqual(['d/32/data {"n":2}']));
    } finally {
      for (const c of open) c.end(true);
      await gw.stop();
    }
  });
});
