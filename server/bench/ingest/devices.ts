// The simulated fleet of the ingest benchmark, run as its own Node process: one MQTT.js connection per device,
// publishing 3-point `d/<id>/data` messages at a controlled total rate. Driven over IPC by ingest.bench.ts:
// `connect` → `{connected, failed}`, `run` → `{sent, errors, seconds}`, `quit` ends every connection and exits.
// The devices are lean protocol clients (wire-client.ts) unless BENCH_FLEET=mqttjs asks for MQTT.js.
import mqtt from 'mqtt';
import { WireClient } from './wire-client.js';

type Command =
  | { cmd: 'devices'; file: string }
  | { cmd: 'connect'; port: number; devices: number; concurrency: number }
  | { cmd: 'run'; qos: 0 | 1; messagesPerSecond: number; seconds: number }
  | { cmd: 'quit' };

/** one connected device, whichever client speaks for it */
interface Device {
  publish(qos: 0 | 1, payload: string): void;
  /** QoS 1 publishes not acknowledged yet (as far as read) */
  unacked(): number;
  closed(): boolean;
  end(): Promise<void>;
}

const MQTTJS = process.env.BENCH_FLEET === 'mqttjs';
const clients: Device[] = [];
/** registered devices' credentials (the `devices` command, lines `<client id> <username> <password> <topic>`) */
let creds: { clientId: string; username: string; password: string; topic: string }[] = [];
let errors = 0;

async function connectOne(port: number, i: number): Promise<Device> {
  // client id ≠ username: the device registry reads username = client id as a serial gateway's UID
  const clientId = creds[i]?.clientId ?? `bc-${i}`;
  const username = creds[i]?.username ?? `bench-${i}`;
  const password = creds[i]?.password;
  const topic = creds[i]?.topic ?? `d/${i}/data`;
  if (MQTTJS) {
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId,
      username,
      password,
      keepalive: 120,
      reconnectPeriod: 0,
      connectTimeout: 30_000,
      clean: true,
    });
    c.on('error', () => {});
    return {
      publish: (qos, payload) => void c.publish(topic, payload, { qos }, (err) => err && errors++),
      unacked: () => Object.keys((c as unknown as { outgoing?: object }).outgoing ?? {}).length,
      closed: () => !c.connected,
      end: () => c.endAsync(true).catch(() => {}),
    };
  }
  const c = await WireClient.connect({ port, clientId, username, password, keepaliveS: 120, timeoutMs: 30_000 });
  const wireTopic = WireClient.topic(topic);
  return {
    publish: (qos, payload) => c.publish(wireTopic, payload, qos),
    unacked: () => c.outstanding,
    closed: () => c.closed,
    end: () => c.end(),
  };
}

const send = (m: unknown) => process.send?.(m);

async function connect(port: number, devices: number, concurrency: number) {
  let next = 0;
  let failed = 0;
  const deadline = Date.now() + 90_000;
  async function worker() {
    while (next < devices && Date.now() < deadline) {
      const i = next++;
      try {
        clients[i] = await connectOne(port, i);
      } catch {
        failed++;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { connected: clients.filter(Boolean).length, failed };
}

/** a ticker every 10 ms publishes its share, round-robin over the devices, so the rate is even */
async function run(qos: 0 | 1, perSecond: number, seconds: number) {
  const live = clients.filter(Boolean);
  let sent = 0;
  const errors0 = errors;
  let cursor = 0;
  const started = Date.now();
  // BENCH_TRACE=1: the generator's own stalls (a tick due every 10 ms coming late), to tell them from the gateway's
  const trace = !!process.env.BENCH_TRACE;
  let lastTick = started;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = Date.now();
      if (trace && now - lastTick > 50)
        process.stderr.write(`generator late tick wall=${now} gap_ms=${now - lastTick}\n`);
      lastTick = now;
      const elapsed = now - started;
      if (elapsed >= seconds * 1000) {
        clearInterval(tick);
        return resolve();
      }
      // what is due by now, catching up on late ticks but never bursting more than 100 ms worth
      const n = Math.min(Math.floor((perSecond * elapsed) / 1000) - sent, perSecond / 10);
      for (let k = 0; k < n; k++) {
        const c = live[cursor++ % live.length]!;
        const payload = `{"env":{"data":{"temperature":${(20 + (sent % 100) / 10).toFixed(1)},"humidity":${40 + (sent % 7)}}},"bench":{"data":{"sent_at":${Date.now()}}}}`;
        if (c.closed()) errors++;
        else c.publish(qos, payload);
        sent++;
      }
    }, 10);
  });
  const took = (Date.now() - started) / 1000;
  // every QoS 1 publish acknowledged (bounded wait): what is still unacknowledged counts as an error
  const unacked = () => live.reduce((n, c) => n + c.unacked(), 0);
  for (let i = 0; i < 200 && unacked() > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return { sent, errors: errors - errors0 + unacked(), seconds: took };
}

process.on('message', async (m: Command) => {
  if (m.cmd === 'devices') {
    const fs = await import('node:fs');
    creds = fs
      .readFileSync(m.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [clientId, username, password, topic] = l.split(' ') as [string, string, string, string];
        return { clientId, username, password, topic };
      });
    send({ cmd: 'devices', loaded: creds.length });
  } else if (m.cmd === 'connect') send({ cmd: 'connected', ...(await connect(m.port, m.devices, m.concurrency)) });
  else if (m.cmd === 'run') send({ cmd: 'ran', ...(await run(m.qos, m.messagesPerSecond, m.seconds)) });
  else {
    await Promise.all(clients.filter(Boolean).map((c) => c.end()));
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
// never outlive the benchmark: the limit fleet.ts gives (connecting, the phases and their drains), 15 minutes as fleet.c
setTimeout(() => process.exit(3), Number(process.env.BENCH_FLEET_LIMIT_S ?? 15 * 60) * 1000).unref();
