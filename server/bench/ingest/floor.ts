// `npm run bench -- broker_floor`: the floors under the broker thread's CPU per device message on this machine, each
// driven by the same C fleet at the ingest bench's offered rate, QoS 0 then QoS 1: floor.c (`c_`: epoll, one read()
// per readable socket, the PUBACKs of a read in one write, nothing else) and node-floor.mjs (`node_`: the same with
// Node's net sockets). Against the ingest bench's broker thread (the first of `other_threads_cpu_us_per_message`):
// C → Node is what Node's socket layer costs, Node → broker thread what aedes and the gateway's own code cost.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { Bench } from '../run.js';
import { buildC, startFleet } from './fleet.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** A floor started as a child process: its port line first, then a `mark` answered with its totals. */
export function startFloor(command: string, args: string[], env?: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], env });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async <T>() => JSON.parse(((await lines.next()).value as string) ?? 'null') as T;
  return {
    port: async () => (await next<{ port: number }>()).port,
    mark: async () => (child.stdin!.write('mark\n'), next<{ messages: number; cpu_us: number }>()),
    quit: () => void child.stdin!.write('quit\n'),
  };
}

/** one floor driven by a fresh fleet at QoS 0 then QoS 1 */
async function measure(command: string, args: string[], devices: number, messagesPerS: number, phaseS: number) {
  const floor = startFloor(command, args);
  const fleet = startFleet(phaseS);
  try {
    const port = await floor.port();
    const conn = await fleet.ask<{ connected: number; failed: number }>(
      { cmd: 'connect', port, devices, concurrency: 200 },
      'connected',
      120_000,
    );
    const figures: Record<string, number> = { devices: conn.connected };
    for (const qos of [0, 1] as const) {
      const before = await floor.mark();
      const ran = await fleet.ask<{ sent: number; errors: number }>(
        { cmd: 'run', qos, messagesPerSecond: messagesPerS, seconds: phaseS },
        'ran',
        (phaseS + 60) * 1000,
      );
      await new Promise((r) => setTimeout(r, 500));
      const after = await floor.mark();
      const messages = after.messages - before.messages;
      const cpu = after.cpu_us - before.cpu_us;
      figures[`qos${qos}_messages`] = messages;
      figures[`qos${qos}_errors`] = ran.errors;
      figures[`qos${qos}_cpu_us_per_message`] = Math.round((cpu / Math.max(1, messages)) * 10) / 10;
      figures[`qos${qos}_cores`] = Math.round((cpu / 1e6 / phaseS) * 100) / 100;
    }
    return figures;
  } finally {
    await fleet.quit();
    floor.quit();
  }
}

const prefixed = (prefix: string, figures: Record<string, number>) =>
  Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${prefix}${k}`, v]));

export const brokerFloorBench: Bench = {
  name: 'broker_floor',
  async run() {
    const devices = env('BENCH_DEVICES', 5000);
    const messagesPerS = env('BENCH_POINTS_PER_S', 150_000) / 3;
    const phaseS = env('BENCH_PHASE_S', 10);
    const binary = buildC('floor.c');
    const figures: Record<string, number | string> = {
      offered_messages_per_s: messagesPerS,
      offered_points_per_s: messagesPerS * 3,
    };
    if (binary) Object.assign(figures, prefixed('c_', await measure(binary, [], devices, messagesPerS, phaseS)));
    else figures.c_error = 'no C compiler';
    const script = fileURLToPath(new URL('./node-floor.mjs', import.meta.url));
    Object.assign(figures, prefixed('node_', await measure(process.execPath, [script], devices, messagesPerS, phaseS)));
    return figures;
  },
};
