// MQTT password guessing against the real gateway, with real MQTT.js clients each connecting from a loopback address
// of its own (devices behind one NAT share one): a device that keeps failing locks out itself there, never its
// neighbours; a username guessed from many addresses is slowed, and its owner still signs in; an address that brings
// too many clients without credentials (gateways nobody registered) is refused those, never a registered device.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { MqttClient, type IClientOptions } from 'mqtt';
import { startGateway, type Running } from './harness.js';
import { addDevice, tenantWithApp, unique } from './fixtures.js';

const NOT_AUTHORIZED = 5;
const LIMIT = 4;
const UNKNOWN_LIMIT = 6;
type AppAuth = Awaited<ReturnType<typeof tenantWithApp>>;

let gw: Running;
let auth: AppAuth;
const open: MqttClient[] = [];
beforeAll(async () => {
  gw = await startGateway({
    MQTT_AUTH_FAILURES_PER_MINUTE: String(LIMIT),
    MQTT_UNKNOWN_CONNECTS_PER_MINUTE: String(UNKNOWN_LIMIT),
    // 127.0.0.9 plays a load balancer in front of MQTT over WebSocket (no other test connects from it)
    TRUST_PROXY: '127.0.0.9',
  });
  auth = await tenantWithApp(gw.url);
});
afterEach(() => void open.splice(0).forEach((c) => c.end(true)));
afterAll(async () => gw.stop());

/** one CONNECT by an MQTT.js client from a chosen loopback address: its client once signed in, else the refusal */
function from(localAddress: string, opts: IClientOptions) {
  return new Promise<{ client?: MqttClient; code?: number | string; ms: number }>((resolve) => {
    const t0 = performance.now();
    const client = new MqttClient(() => net.connect({ host: '127.0.0.1', port: gw.mqttPort, localAddress }), {
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 9000,
      clean: true,
      keepalive: 30,
      clientId: unique('c'),
      ...opts,
    });
    const ms = () => performance.now() - t0;
    client.once('connect', () => (open.push(client), resolve({ client, ms: ms() })));
    client.once('error', (err) => {
      client.end(true);
      resolve({ code: (err as { code?: number }).code ?? err.message, ms: ms() });
    });
    client.once('close', () => resolve({ code: 'closed', ms: ms() }));
  });
}

async function device() {
  const d = await addDevice(gw.url, auth, 'mqtt');
  return { id: d.id, username: d.store_mqtt_username as string, password: d.store_mqtt_password as string };
}

/** one CONNECT over WebSocket through the "balancer" at 127.0.0.9, which says the client is `forwardedFor` */
function viaBalancer(forwardedFor: string, username: string, password: string) {
  return mqtt
    .connectAsync(`${gw.url.replace('http', 'ws')}/mqtt`, {
      clientId: unique('w'),
      username,
      password,
      reconnectPeriod: 0,
      connectTimeout: 3000,
      wsOptions: { localAddress: '127.0.0.9', headers: { 'x-forwarded-for': forwardedFor } },
    })
    .then(
      (c) => (open.push(c), 0),
      (err: { code?: number }) => err.code ?? -1,
    );
}

describe('MQTT password guessing', () => {
  it('refuses a username that keeps failing from an address there, unchecked; its neighbours behind that address sign in', async () => {
    const stale = await device(); // left with an old password after "Buat Ulang Password"
    const neighbour = await device();
    const before = gw.app.broker.metrics();
    for (let i = 0; i < LIMIT; i++)
      expect((await from('127.0.0.2', { username: stale.username, password: `lama-${i}` })).code).toBe(NOT_AUTHORIZED);
    // the pair is refused now, the right password too (the guesser learns nothing there)...
    expect((await from('127.0.0.2', { username: stale.username, password: stale.password })).code).toBe(NOT_AUTHORIZED);
    // ...over WebSocket as well
    const overWs = await mqtt
      .connectAsync(`${gw.url.replace('http', 'ws')}/mqtt`, {
        clientId: unique('w'),
        username: stale.username,
        password: stale.password,
        reconnectPeriod: 0,
        connectTimeout: 3000,
        wsOptions: { localAddress: '127.0.0.2' },
      })
      .then(
        (c) => (open.push(c), 0),
        (err: { code?: number }) => err.code ?? -1,
      );
    expect(overWs).toBe(NOT_AUTHORIZED);
    // ...but every other device behind the same address signs in, every time
    for (let i = 0; i < 5; i++) {
      const r = await from('127.0.0.2', { username: neighbour.username, password: neighbour.password });
      expect(r.client).toBeDefined();
      r.client!.end(true);
    }
    // and the stale device's username from another address is checked as ever
    expect((await from('127.0.0.3', stale)).client).toBeDefined();
    const after = gw.app.broker.metrics();
    expect(after.throttled_connects! - before.throttled_connects!).toBe(2);
    expect(after.failed_connects! - before.failed_connects!).toBe(LIMIT);
  });

  it('keeps a correctly configured device in while 20 bad CONNECTs burst from its address', async () => {
    const good = await device();
    const victim = await device();
    const burst = Array.from({ length: 20 }, (_, i) =>
      from(
        '127.0.0.4',
        i % 2 ? { username: victim.username, password: `x${i}` } : { username: unique('siapa'), password: 'x' },
      ),
    );
    const refused = await Promise.all(burst);
    expect(refused.every((r) => r.code === NOT_AUTHORIZED)).toBe(true);
    for (let i = 0; i < 10; i++) {
      const r = await from('127.0.0.4', good);
      expect(r.client).toBeDefined();
      expect(r.ms).toBeLessThan(2000);
      r.client!.end(true);
    }
  });

  it('slows a username guessed from many addresses; its owner signs in at once from its own address and after a wait from a new one', async () => {
    const owner = await device();
    // the owner's device signs in from its usual address
    const first = await from('127.0.0.5', owner);
    first.client!.end(true);
    // a guesser rotating addresses, one guess from each: the username's failures pass its limit
    for (let i = 0; i < LIMIT; i++)
      expect((await from(`127.0.1.${i + 1}`, { username: owner.username, password: `tebak-${i}` })).code).toBe(
        NOT_AUTHORIZED,
      );
    const before = gw.app.broker.metrics();
    // two more guesses from fresh addresses: their turns are spaced (the second waits)
    const guesses = await Promise.all([
      from('127.0.1.10', { username: owner.username, password: 'tebak-a' }),
      from('127.0.1.11', { username: owner.username, password: 'tebak-b' }),
    ]);
    expect(guesses.map((g) => g.code)).toEqual([NOT_AUTHORIZED, NOT_AUTHORIZED]);
    expect(Math.max(...guesses.map((g) => g.ms))).toBeGreaterThan(1000);
    // the owner from its own address: at once
    const home = await from('127.0.0.5', owner);
    expect(home.client).toBeDefined();
    expect(home.ms).toBeLessThan(1000);
    // from an address it never used: slowed, not refused
    const away = await from('127.0.0.6', owner);
    expect(away.client).toBeDefined();
    expect(gw.app.broker.metrics().slowed_connects! - before.slowed_connects!).toBeGreaterThanOrEqual(1);
  });

  it('refuses gateways nobody registered past the address limit, never a registered device from that address', async () => {
    const registered = await device();
    const results = [];
    for (let i = 0; i < UNKNOWN_LIMIT + 2; i++) {
      const uid = unique('ZL').toUpperCase();
      results.push((await from('127.0.0.7', { username: uid, clientId: uid })).code ?? 'in');
    }
    expect(results).toEqual([...Array<string>(UNKNOWN_LIMIT).fill('in'), NOT_AUTHORIZED, NOT_AUTHORIZED]);
    expect((await from('127.0.0.7', registered)).client).toBeDefined();
    // another address is not affected
    const uid = unique('ZL').toUpperCase();
    expect((await from('127.0.0.8', { username: uid, clientId: uid })).client).toBeDefined();
    expect(gw.app.broker.metrics().provisional_refused).toBe(2);
  });

  it('counts MQTT over WebSocket behind a trusted balancer by the address it forwards, never by what a client sends', async () => {
    const stale = await device();
    // the owner signs in from home first, through the balancer
    expect(await viaBalancer('198.51.100.9', stale.username, stale.password)).toBe(0);
    for (let i = 0; i < LIMIT; i++)
      expect(await viaBalancer('203.0.113.7', stale.username, `lama-${i}`)).toBe(NOT_AUTHORIZED);
    // the guesser behind the balancer is refused, the right password too; the owner behind the same balancer is not
    expect(await viaBalancer('203.0.113.7', stale.username, stale.password)).toBe(NOT_AUTHORIZED);
    expect(await viaBalancer('198.51.100.9', stale.username, stale.password)).toBe(0);
  });
});
