// The simulated fleet of the ingest benchmark, run as its own Node process: one MQTT.js connection per device,
// publishing 3-point `d/<id>/data` messages at a controlled total rate. Driven over IPC by ingest.bench.ts:
// `connect` → `{connected, failed}`, `run` → `{sent, errors, seconds}`, `quit` ends every connection and exits.
import mqtt, { type MqttClient } from 'mqtt';

type Command =
  | { cmd: 'connect'; port: number; devices: number; concurrency: number }
  | { cmd: 'run'; qos: 0 | 1; messagesPerSecond: number; seconds: number }
  | { cmd: 'quit' };

const clients: MqttClient[] = [];
const send = (m: unknown) => process.send?.(m);

async function connect(port: number, devices: number, concurrency: number) {
  let next = 0;
  let failed = 0;
  const deadline = Date.now() + 90_000;
  async function worker() {
    while (next < devices && Date.now() < deadline) {
      const i = next++;
      try {
        // client id ≠ username: the device registry reads username = client id as a serial gateway's UID
        const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: `bc-${i}`, username: `bench-${i}`, keepalive: 120, reconnectPeriod: 0, connectTimeout: 30_000, clean: true });
        c.on('error', () => {});
        clients[i] = c;
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
  let errors = 0;
  let cursor = 0;
  const started = Date.now();
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const elapsed = Date.now() - started;
      if (elapsed >= seconds * 1000) {
        clearInterval(tick);
        return resolve();
      }
      // what is due by now, catching up on late ticks but never bursting more than 100 ms worth
      const n = Math.min(Math.floor((perSecond * elapsed) / 1000) - sent, perSecond / 10);
      for (let k = 0; k < n; k++) {
        const c = live[cursor++ % live.length];
        const i = Number(c.options.username!.slice(6));
        const payload = `{"env":{"data":{"temperature":${(20 + (sent % 100) / 10).toFixed(1)},"humidity":${40 + (sent % 7)}}},"bench":{"data":{"sent_at":${Date.now()}}}}`;
        c.publish(`d/${i}/data`, payload, { qos }, (err) => err && errors++);
        sent++;
      }
    }, 10);
  });
  return { sent, errors, seconds: (Date.now() - started) / 1000 };
}

process.on('message', async (m: Command) => {
  if (m.cmd === 'connect') send({ cmd: 'connected', ...(await connect(m.port, m.devices, m.concurrency)) });
  else if (m.cmd === 'run') send({ cmd: 'ran', ...(await run(m.qos, m.messagesPerSecond, m.seconds)) });
  else {
    await Promise.all(clients.filter(Boolean).map((c) => c.endAsync(true).catch(() => {})));
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
// never outlive the benchmark
setTimeout(() => process.exit(3), 5 * 60_000).unref();
