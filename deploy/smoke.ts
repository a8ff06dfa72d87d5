// A deployment's smoke check through its load balancer (README "Beyond one machine"): a tenant signs in over HTTP, an
// MQTT device publishes through the MQTT port, the value is seen on the console's socket.io live channel (WebSocket)
// and by the latest-data call; MQTT over WebSocket (/mqtt) connects too. With FAILOVER_S=<seconds> the device then
// publishes once a second that long: kill a gateway meanwhile and watch it reconnect through the balancer.
//   node --import tsx deploy/smoke.ts [http://127.0.0.1:8080] [mqtt://127.0.0.1:1883]
// Prints one JSON line per step; exits 1 on the first failure.
import mqtt from 'mqtt';
import { io } from 'socket.io-client';
import { DEVICE_DATA_LIVE, deviceDataContract } from '@sentra/contracts';
import { call } from '../server/test/harness.js';
import { addDevice, tenantWithApp, unique, until } from '../server/test/fixtures.js';
import { ask, sessionAuth } from '../server/src/platform/realtime/testing/client.js';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const broker = process.argv[3] ?? 'mqtt://127.0.0.1:1883';
const failoverS = Number(process.env.FAILOVER_S ?? 0);
const t0 = Date.now();
const say = (step: string, extra: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ t_ms: Date.now() - t0, step, ...extra }));

async function main() {
  const owner = await tenantWithApp(base);
  const auth = { tenant: owner.tenant, domain: owner.domain };
  say('signed in over HTTP, application added', { domain: owner.domain });
  const device = await addDevice(base, auth, 'mqtt');
  say('device added', { id: device.id });

  // as the console does: WebSocket only, reconnecting (through the balancer, to any live gateway) and subscribing again
  const socket = io(base, {
    auth: sessionAuth(owner, owner.domain),
    transports: ['websocket'],
    reconnectionDelayMax: 1000,
  });
  const subscribe = async () => {
    const sub = await ask(socket, 'subscribe', { channel: DEVICE_DATA_LIVE.channel, params: { device_id: device.id } });
    if (sub.response_result !== 0) throw new Error(`subscribe: ${JSON.stringify(sub)}`);
  };
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  await subscribe();
  say('socket.io live channel subscribed', { transport: socket.io.engine.transport.name });
  socket.on('disconnect', () => say('socket.io disconnected'));
  socket.io.on('reconnect', () => {
    say('socket.io reconnected');
    subscribe().catch((err) => say('subscribe again failed', { error: String(err) }));
  });
  const pushed: number[] = [];
  socket.on(DEVICE_DATA_LIVE.event, (p: { data: { value: unknown }[] }) => {
    for (const d of p.data) if (typeof d.value === 'number') pushed.push(d.value);
  });

  const creds = { username: device.store_mqtt_username as string, password: device.store_mqtt_password as string };
  const ws = await mqtt.connectAsync(`${base.replace(/^http/, 'ws')}/mqtt`, {
    ...creds,
    clientId: unique('ws'),
    reconnectPeriod: 0,
  });
  say('MQTT over WebSocket connected through /mqtt');
  await ws.endAsync();

  const client = await mqtt.connectAsync(broker, {
    ...creds,
    clientId: unique('dev'),
    reconnectPeriod: 300,
    connectTimeout: 3000,
  });
  let lastClose = 0;
  client.on('close', () => {
    lastClose = Date.now();
    say('MQTT connection closed');
  });
  client.on('connect', () => say('MQTT reconnected', { after_ms: Date.now() - lastClose }));
  say('MQTT device connected');

  const publish = (v: number) =>
    client.publishAsync(`d/${device.id}/data`, JSON.stringify({ pm: { meter: { power: v } } }), { qos: 1 });
  const latest = async () => {
    const r = await call(base, deviceDataContract.latest, { id: device.id }, auth);
    return (r.body.data ?? []).map((d: { value: unknown }) => d.value) as unknown[];
  };
  await publish(1);
  if (!(await until(() => pushed.includes(1), 5000))) throw new Error('no live push of the published value');
  say('published value seen on the live channel');
  if (!(await until(async () => (await latest()).includes(1), 5000))) throw new Error('published value not stored');
  say('published value seen by the latest-data call');

  if (failoverS > 0) {
    say('publishing once a second: kill a gateway now', { seconds: failoverS });
    let acked = 1;
    for (let v = 2; v < 2 + failoverS; v++) {
      const sent = Date.now();
      try {
        // a publish on a dead connection waits for the reconnect (mqtt.js queues it and resends)
        await Promise.race([publish(v), new Promise((_, no) => setTimeout(() => no(new Error('no ack')), 10_000))]);
        acked = v;
      } catch (err) {
        say('publish not acknowledged', { v, error: String(err) });
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - sent))));
    }
    if (!(await until(async () => (await latest()).includes(acked), 5000)))
      throw new Error(`acknowledged value ${acked} not stored`);
    if (!(await until(() => pushed.includes(acked), 5000))) throw new Error(`no live push of ${acked}`);
    say('last acknowledged value stored and pushed live', { v: acked, live_pushes: pushed.length });
  }
  await client.endAsync();
  socket.close();
  say('ok');
}

main().then(
  () => process.exit(0),
  (err) => {
    say('failed', { error: String(err?.stack ?? err) });
    process.exit(1);
  },
);
