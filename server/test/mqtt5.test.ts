// MQTT 5 beside MQTT 3.1.1 on the embedded broker (issue 27), with real MQTT.js clients over TCP and WebSocket, on two
// broker threads: registered generic devices of both versions publish what is stored and receive console commands;
// the broker's MQTT 5 answers (CONNACK properties and reason codes, PUBACK and SUBACK refusals), topic aliases from
// clients, user properties passed through, message expiry and session expiry.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqttPacket from 'mqtt-packet';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { commandsContract, deviceDataContract } from '@sentra/contracts';
import { call, type Running } from './harness.js';
import { addDevice, until } from './fixtures.js';
import { startDataGateway, type AppAuth } from './device-data.kit.js';
import type { BrokerAuthority } from '../src/platform/mqtt/types.js';
import { TOPIC_ALIAS_MAXIMUM } from '../src/platform/mqtt/mqtt5.js';
import { eventually } from '../src/platform/testing/until.js';

let gw: Running;
let auth: AppAuth;
const clients: MqttClient[] = [];
/** test identities `v5dev<N>` may use topics under v5/<N>/ only (the domain's own devices are tested below) */
const testDevices: BrokerAuthority = {
  authenticate(_clientId, username, password) {
    const m = /^v5dev(\d+)$/.exec(username ?? '');
    return m && password?.toString() === 'rahasia' ? { key: `v5dev:${m[1]}` } : null;
  },
  authorizePublish: (id, topic) => topic.startsWith(`v5/${id.key.slice(6)}/`),
  authorizeSubscribe: (id, topic) => topic.startsWith(`v5/${id.key.slice(6)}/`),
};
beforeAll(async () => {
  ({ gw, auth } = await startDataGateway({ MQTT_THREADS: '2' }));
  gw.app.broker.addAuthority(testDevices);
});
afterEach(() => {
  clients.splice(0).forEach((c) => c.end(true));
});
afterAll(async () => gw.stop());

type Connack = {
  reasonCode?: number;
  returnCode?: number;
  sessionPresent: boolean;
  properties?: Record<string, unknown>;
};
/** one connection attempt (no reconnects): the client and its CONNACK, or the refusal's code */
function attempt(
  url: string,
  opts: IClientOptions,
): Promise<{ client: MqttClient; connack: Connack; got: string[] } | { code: number | string }> {
  return new Promise((resolve) => {
    const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 3000, ...opts });
    clients.push(client);
    // every payload from the start: a session's queued messages arrive right after CONNACK, often in the same read
    const got: string[] = [];
    client.on('message', (_topic, payload) => got.push(payload.toString()));
    client.once('connect', (connack) => resolve({ client, connack: connack as Connack, got }));
    client.once('error', (err) => resolve({ code: (err as { code?: number }).code ?? err.message }));
    client.once('close', () => resolve({ code: 'closed' }));
  });
}
async function connect(url: string, opts: IClientOptions) {
  const a = await attempt(url, opts);
  if (!('client' in a)) throw new Error(`refused: ${a.code}`);
  return a;
}
const tcp = () => `mqtt://127.0.0.1:${gw.mqttPort}`;
const ws = () => `${gw.url.replace('http', 'ws')}/mqtt`;
const v5 = (username: string, more: IClientOptions = {}): IClientOptions => ({
  protocolVersion: 5,
  username,
  password: 'rahasia',
  ...more,
});

describe.each([
  { transport: 'TCP', url: tcp },
  { transport: 'WebSocket', url: ws },
])('MQTT 5, 3.1.1 and 3.1 devices side by side over $transport', ({ url }) => {
  it("each one's publish is stored and each receives its console command and answers it", async () => {
    const devices = await Promise.all(
      [5, 4, 3].map(async (protocolVersion) => {
        const device = await addDevice(gw.url, auth, 'mqtt');
        const { client } = await connect(url(), {
          protocolVersion: protocolVersion as 3 | 4 | 5,
          protocolId: protocolVersion === 3 ? 'MQIsdp' : 'MQTT',
          username: device.store_mqtt_username,
          password: device.store_mqtt_password,
        });
        await client.subscribeAsync(`d/${device.id}/cmd`, { qos: 1 });
        client.on('message', (topic, payload) => {
          const cmd = JSON.parse(payload.toString());
          if (topic === `d/${device.id}/cmd`)
            client.publish(`d/${device.id}/cmd/res`, JSON.stringify({ id: cmd.id, ok: true, via: protocolVersion }), {
              qos: 1,
            });
        });
        return { device, client, protocolVersion };
      }),
    );
    for (const { device, client, protocolVersion } of devices) {
      await client.publishAsync(
        `d/${device.id}/data`,
        JSON.stringify({ env: { data: { temperature: 20 + protocolVersion } } }),
        { qos: 1 },
      );
      const latest = async () =>
        (await call(gw.url, deviceDataContract.latest, { id: device.id }, auth)).body.data as any[];
      expect(
        await until(
          async () =>
            (await latest())?.some((p) => p.param === 'temperature' && p.value === 20 + protocolVersion) === true,
        ),
      ).toBe(true);
    }
    for (const { device, protocolVersion } of devices) {
      const r = await call(
        gw.url,
        commandsContract.configure,
        { id: device.id, sensor: 'hvac', configtype: 'config', param: 'setpoint', value: 24 },
        auth,
      );
      expect(r.body).toMatchObject({ response_result: 0, data: { reply: { ok: true, via: protocolVersion } } });
    }
  });

  it('a v5 publisher reaches a v5 subscriber with its user properties and content type, and a 3.1.1 subscriber with the same message', async () => {
    const n = url === tcp ? 1 : 2;
    const sub5 = (await connect(url(), v5(`v5dev${n}`))).client;
    const sub4 = (await connect(url(), { protocolVersion: 4, username: `v5dev${n}`, password: 'rahasia' })).client;
    const got5: Array<[string, string, unknown]> = [];
    const got4: Array<[string, string]> = [];
    sub5.on('message', (topic, payload, packet) => got5.push([topic, payload.toString(), packet.properties]));
    sub4.on('message', (topic, payload) => got4.push([topic, payload.toString()]));
    await sub5.subscribeAsync(`v5/${n}/#`, { qos: 1 });
    await sub4.subscribeAsync(`v5/${n}/#`, { qos: 1 });
    const pub = (await connect(url(), v5(`v5dev${n}`))).client;
    await pub.publishAsync(`v5/${n}/data`, 'halo', {
      qos: 1,
      properties: { userProperties: { lokasi: 'gedung-a' }, contentType: 'text/plain' },
    });
    await eventually(() =>
      expect(got5).toEqual([
        [`v5/${n}/data`, 'halo', { userProperties: { lokasi: 'gedung-a' }, contentType: 'text/plain' }],
      ]),
    );
    await eventually(() => expect(got4).toEqual([[`v5/${n}/data`, 'halo']]));
  });
});

describe('the MQTT 5 broker', () => {
  it('answers CONNACK with reason code 0 and says what it takes: topic aliases, receive maximum, packet size, retain', async () => {
    const { connack } = await connect(tcp(), v5('v5dev10'));
    expect(connack.reasonCode).toBe(0);
    expect(connack.properties).toMatchObject({
      topicAliasMaximum: TOPIC_ALIAS_MAXIMUM,
      receiveMaximum: 100,
      maximumPacketSize: 1024 * 1024 + 5,
      retainAvailable: true,
      sharedSubscriptionAvailable: false,
    });
  });

  it('refuses with MQTT 5 reason codes: 135 not authorised (unknown client), 140 bad authentication method; 3.1.1 still gets 5', async () => {
    expect(await attempt(tcp(), v5('nobody'))).toMatchObject({ code: 135 });
    expect(await attempt(tcp(), v5('v5dev11', { properties: { authenticationMethod: 'SCRAM-SHA-1' } }))).toMatchObject({
      code: 140,
    });
    expect(await attempt(tcp(), { protocolVersion: 4, username: 'nobody' })).toMatchObject({ code: 5 });
    expect(await attempt(tcp(), { protocolVersion: 3, username: 'nobody' })).toMatchObject({ code: 5 });
  });

  it('answers a publish outside the rights with PUBACK 135 and a subscription outside them with SUBACK 135, and keeps the connection', async () => {
    const { client } = await connect(tcp(), v5('v5dev12'));
    const before = gw.app.broker.metrics().dropped_publishes;
    const refused = await client.publishAsync('v5/13/data', 'menyusup', { qos: 1 }).then(
      () => 'acknowledged',
      (err: { code?: number }) => err.code,
    );
    expect(refused).toBe(135);
    expect(gw.app.broker.metrics().dropped_publishes).toBe(before + 1);
    const granted = await client.subscribeAsync(['v5/12/cmd', 'v5/13/cmd'], { qos: 1 }).then(
      (g) => g.map((s) => s.qos),
      (err: { packet?: { granted?: number[] } }) => err.packet?.granted,
    );
    expect(granted).toEqual([1, 135]);
    await client.publishAsync('v5/12/data', 'sah', { qos: 1 });
    expect(client.connected).toBe(true);
    // an UNSUBSCRIBE is answered with a reason code for each filter
    await client.unsubscribeAsync(['v5/12/cmd', 'v5/12/lain']);
    expect(client.connected).toBe(true);
  });

  it("takes a client's topic alias: the first publish sets it, the next ones with an empty topic use it; an unknown alias closes the connection", async () => {
    const watcher = (await connect(tcp(), v5('v5dev14'))).client;
    const got: string[] = [];
    watcher.on('message', (topic, payload) => got.push(`${topic} ${payload}`));
    await watcher.subscribeAsync('v5/14/#');
    const { client } = await connect(tcp(), v5('v5dev14'));
    await client.publishAsync('v5/14/data', 'satu', { qos: 1, properties: { topicAlias: 3 } });
    await client.publishAsync('', 'dua', { qos: 1, properties: { topicAlias: 3 } });
    await client.publishAsync('', 'tiga', { qos: 0, properties: { topicAlias: 3 } });
    await eventually(() => expect(got).toEqual(['v5/14/data satu', 'v5/14/data dua', 'v5/14/data tiga']));
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish('', 'empat', { qos: 0, properties: { topicAlias: 9 } });
    await closed;
  });

  it.each([
    { alias: TOPIC_ALIAS_MAXIMUM + 1, topic: 'v5/17/data', reason: 0x94, case: 'above the maximum the CONNACK gave' },
    { alias: 0, topic: 'v5/17/data', reason: 0x94, case: '0' },
    { alias: 9, topic: '', reason: 0x82, case: 'never set' },
  ])(
    'closes a connection whose topic alias is $case with DISCONNECT $reason first',
    async ({ alias, topic, reason }) => {
      const s = net.connect(gw.mqttPort, '127.0.0.1');
      const parser = mqttPacket.parser({ protocolVersion: 5 });
      const packets: Array<{ cmd: string; reasonCode?: number }> = [];
      parser.on('packet', (p) => packets.push(p as never));
      s.on('data', (d) => parser.parse(d));
      const closed = new Promise<void>((resolve) => s.once('close', () => resolve()));
      const v5 = { protocolVersion: 5 } as const;
      s.write(
        mqttPacket.generate(
          {
            cmd: 'connect',
            protocolId: 'MQTT',
            protocolVersion: 5,
            clean: true,
            clientId: `alias-${alias}`,
            keepalive: 60,
            username: 'v5dev17',
            password: Buffer.from('rahasia'),
          },
          v5,
        ),
      );
      await eventually(() => expect(packets[0]).toMatchObject({ cmd: 'connack', reasonCode: 0 }));
      // mqtt-packet itself refuses to write an alias of 0: its bytes are written by hand from one with alias 1
      const publish = mqttPacket.generate(
        {
          cmd: 'publish',
          topic,
          payload: Buffer.from('x'),
          qos: 0,
          retain: false,
          dup: false,
          properties: { topicAlias: alias || 1 },
        },
        v5,
      );
      if (alias === 0) publish[publish.length - 2] = 0; // the alias' low byte, just before the 1-byte payload
      s.write(publish);
      await closed;
      expect(packets.slice(1)).toEqual([expect.objectContaining({ cmd: 'disconnect', reasonCode: reason })]);
    },
  );

  it('delivers a retained message with what remains of its expiry, and not at all once it expired', async () => {
    const { client } = await connect(tcp(), v5('v5dev15'));
    await client.publishAsync('v5/15/lama', 'basi', { qos: 1, retain: true, properties: { messageExpiryInterval: 1 } });
    await client.publishAsync('v5/15/baru', 'segar', {
      qos: 1,
      retain: true,
      properties: { messageExpiryInterval: 600 },
    });
    // time itself: past the first message's 1 s expiry
    await new Promise((r) => setTimeout(r, 1500));
    const later = (await connect(tcp(), v5('v5dev15'))).client;
    const got: Array<[string, number | undefined]> = [];
    later.on('message', (topic, _payload, packet) => got.push([topic, packet.properties?.messageExpiryInterval]));
    await later.subscribeAsync('v5/15/#', { qos: 1 });
    await eventually(() => expect(got).toHaveLength(1));
    // time for the expired retained message, were it sent, to arrive after the other
    await new Promise((r) => setTimeout(r, 200));
    expect(got[0]![0]).toBe('v5/15/baru');
    expect(got[0]![1]).toBeGreaterThan(590);
    expect(got[0]![1]).toBeLessThanOrEqual(600);
    expect(got).toHaveLength(1);
  });

  it('keeps a session with a session expiry: QoS 1 messages published meanwhile are delivered on reconnect; Clean Start discards it', async () => {
    const opts = v5('v5dev16', { clientId: 'v5-sesi-16', clean: true, properties: { sessionExpiryInterval: 300 } });
    const first = (await connect(tcp(), opts)).client;
    await first.subscribeAsync('v5/16/cmd', { qos: 1 });
    const away = gw.app.broker.metrics().away_sessions ?? 0;
    await first.endAsync();
    await eventually(() => expect(gw.app.broker.metrics().away_sessions).toBe(away + 1));
    await gw.app.broker.publish('v5/16/cmd', 'selagi-pergi', { qos: 1 });
    const back = await connect(tcp(), { ...opts, clean: false });
    expect(back.connack.sessionPresent).toBe(true);
    await eventually(() => expect(back.got).toEqual(['selagi-pergi']));
    await back.client.endAsync();
    // Clean Start: the stored session is gone (nothing queued, no subscription)
    await gw.app.broker.publish('v5/16/cmd', 'dibuang', { qos: 1 });
    const fresh = await connect(tcp(), opts);
    expect(fresh.connack.sessionPresent).toBe(false);
    const heard: string[] = [];
    fresh.client.on('message', (_t, p) => heard.push(p.toString()));
    await gw.app.broker.publish('v5/16/cmd', 'tak-berlangganan', { qos: 1 });
    // a topic it does subscribe now, published after: its message arrives, and one of the old subscription would
    // have arrived before it (one session delivers in order)
    await fresh.client.subscribeAsync('v5/16/baru', { qos: 1 });
    await gw.app.broker.publish('v5/16/baru', 'penanda', { qos: 1 });
    expect(await until(() => heard.includes('penanda'))).toBe(true);
    expect(heard).toEqual(['penanda']);
  });

  it('ends a session whose DISCONNECT sets its session expiry to 0', async () => {
    const opts = v5('v5dev18', { clientId: 'v5-sesi-18', clean: false, properties: { sessionExpiryInterval: 300 } });
    const first = (await connect(tcp(), opts)).client;
    await first.subscribeAsync('v5/18/cmd', { qos: 1 });
    await new Promise<void>((resolve) =>
      first.end(false, { properties: { sessionExpiryInterval: 0 } }, () => resolve()),
    );
    // time for the broker to handle the DISCONNECT before the same client id connects again
    await new Promise((r) => setTimeout(r, 200));
    const back = await connect(tcp(), opts);
    expect(back.connack.sessionPresent).toBe(false);
  });

  it('ends a session without a session expiry with its connection (MQTT 5 default)', async () => {
    const opts = v5('v5dev17', { clientId: 'v5-sesi-17', clean: false });
    const first = (await connect(tcp(), opts)).client;
    await first.subscribeAsync('v5/17/cmd', { qos: 1 });
    await first.endAsync();
    const back = await connect(tcp(), opts);
    expect(back.connack.sessionPresent).toBe(false);
  });
});
