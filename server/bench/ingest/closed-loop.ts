// Closed-loop devices for the ingest benchmark: MQTT.js clients (what integrators' devices and SDKs use), each keeping
// `window` QoS 1 messages in flight and publishing the next one only when a PUBACK frees a place, as Paho embedded does
// with a window of 1 and most SDKs with 8 to 20 (MQTT 5 Receive Maximum). Unlike the paced fleet (fleet.ts), their rate
// is whatever the gateway's acknowledgements allow: an acknowledgement that waits for anything but its commit shows
// here at once. Processes of their own (`BENCH_CLOSED_PROCS`, the devices split between them), driven over IPC:
// connect → connected, run → ran, quit.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import { askChild } from '../child.js';

export interface ClosedDevice {
  username: string;
  password: string;
  /** its data topic (d/<id>/data) */
  topic: string;
}

type Command =
  | { cmd: 'connect'; port: number; devices: ClosedDevice[] }
  | { cmd: 'run'; window: number; seconds: number }
  | { cmd: 'quit' };

/** the same 3-point message as the fleet's, with its send time (the sampler's publish → stored) */
const payloadOf = (n: number) =>
  `{"env":{"data":{"temperature":${(20 + (n % 100) / 10).toFixed(1)},"humidity":${40 + (n % 7)}}},"bench":{"data":{"sent_at":${Date.now()}}}}`;

// ---- the child: its share of the devices ----
if (process.send && process.env.BENCH_CLOSED_CHILD === '1') {
  let clients: MqttClient[] = [];
  let devices: ClosedDevice[] = [];
  const send = (m: object) => process.send!(m);
  process.on('message', async (m: Command) => {
    if (m.cmd === 'connect') {
      devices = m.devices;
      clients = await Promise.all(
        devices.map((d, i) =>
          mqtt.connectAsync(`mqtt://127.0.0.1:${m.port}`, {
            clientId: `closed-${process.pid}-${i}`,
            username: d.username,
            password: d.password,
            protocolVersion: 4,
            reconnectPeriod: 0,
            keepalive: 120,
          }),
        ),
      );
      send({ cmd: 'connected', connected: clients.length });
    } else if (m.cmd === 'run') {
      let sent = 0;
      let acked = 0;
      let errors = 0;
      let running = true;
      const ends = Date.now() + m.seconds * 1000;
      let inFlight = 0;
      const next = (c: MqttClient, d: ClosedDevice) => {
        if (!running || Date.now() >= ends) return;
        sent++;
        inFlight++;
        c.publish(d.topic, payloadOf(sent), { qos: 1 }, (err) => {
          inFlight--;
          if (err) errors++;
          else acked++;
          next(c, d);
        });
      };
      clients.forEach((c, i) => {
        for (let k = 0; k < m.window; k++) next(c, devices[i]!);
      });
      await new Promise((r) => setTimeout(r, m.seconds * 1000));
      running = false;
      // what is still in flight gets its PUBACK (bounded wait); one missing is an error
      for (let i = 0; i < 500 && inFlight > 0; i++) await new Promise((r) => setTimeout(r, 20));
      send({ cmd: 'ran', sent, acked, errors: errors + inFlight, seconds: m.seconds });
    } else if (m.cmd === 'quit') {
      await Promise.all(clients.map((c) => c.endAsync().catch(() => undefined)));
      process.exit(0);
    }
  });
  // never outlive a failed benchmark
  setTimeout(() => process.exit(3), Number(process.env.BENCH_CLOSED_LIMIT_S ?? 900) * 1000).unref();
}

// ---- the parent's side ----
export interface ClosedLoop {
  pids: number[];
  connect(port: number, devices: ClosedDevice[]): Promise<number>;
  /** every device keeps `window` messages in flight for `seconds`: messages sent and acknowledged */
  run(window: number, seconds: number): Promise<{ sent: number; acked: number; errors: number }>;
  quit(): Promise<void>;
}

export function startClosedLoop(processes: number, limitS = 900): ClosedLoop {
  const children: ChildProcess[] = Array.from({ length: processes }, () =>
    fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, BENCH_CLOSED_CHILD: '1', BENCH_CLOSED_LIMIT_S: String(limitS) },
    }),
  );
  return {
    pids: children.map((c) => c.pid!),
    async connect(port, devices) {
      const answers = await Promise.all(
        children.map((c, k) =>
          askChild<{ connected: number }>(
            c,
            { cmd: 'connect', port, devices: devices.filter((_, i) => i % processes === k) },
            'connected',
            120_000,
          ),
        ),
      );
      return answers.reduce((n, a) => n + a.connected, 0);
    },
    async run(window, seconds) {
      const answers = await Promise.all(
        children.map((c) =>
          askChild<{ sent: number; acked: number; errors: number }>(
            c,
            { cmd: 'run', window, seconds },
            'ran',
            (seconds + 30) * 1000,
          ),
        ),
      );
      return answers.reduce(
        (t, a) => ({ sent: t.sent + a.sent, acked: t.acked + a.acked, errors: t.errors + a.errors }),
        { sent: 0, acked: 0, errors: 0 },
      );
    },
    async quit() {
      await Promise.all(
        children.map(async (c) => {
          if (c.exitCode !== null || c.signalCode !== null) return;
          const exited = new Promise((r) => c.once('exit', r));
          if (c.connected) c.send({ cmd: 'quit' });
          await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
          if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
        }),
      );
    },
  };
}
