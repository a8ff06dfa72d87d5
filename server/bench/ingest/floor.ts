// `npm run bench -- broker_floor`: the floor under the broker thread's CPU per device message on this machine. floor.c
// (epoll, one read() per readable socket, PUBACKs in one write per read, nothing else) is driven by the same C fleet
// and the same offered rate as the ingest bench, at QoS 0 then QoS 1; compare its `cpu_us_per_message` with the ingest
// bench's broker thread (the first of `other_threads_cpu_us_per_message`): the difference is the broker's own code.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Bench } from '../run.js';
import { buildC, startFleet } from './fleet.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const brokerFloorBench: Bench = {
  name: 'broker_floor',
  async run() {
    const devices = env('BENCH_DEVICES', 5000);
    const messagesPerS = env('BENCH_POINTS_PER_S', 150_000) / 3;
    const phaseS = env('BENCH_PHASE_S', 10);
    const binary = buildC('floor.c');
    if (!binary) return { error: 'no C compiler' };
    const floor = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: floor.stdout! })[Symbol.asyncIterator]();
    const next = async <T>() => JSON.parse(((await lines.next()).value as string) ?? 'null') as T;
    const fleet = startFleet(phaseS);
    try {
      const { port } = await next<{ port: number }>();
      const conn = await fleet.ask<{ connected: number; failed: number }>(
        { cmd: 'connect', port, devices, concurrency: 200 },
        'connected',
        120_000,
      );
      const figures: Record<string, number> = {
        devices: conn.connected,
        offered_messages_per_s: messagesPerS,
        offered_points_per_s: messagesPerS * 3,
      };
      for (const qos of [0, 1] as const) {
        const mark = async () => (floor.stdin!.write('mark\n'), next<{ messages: number; cpu_us: number }>());
        const before = await mark();
        const ran = await fleet.ask<{ sent: number; errors: number }>(
          { cmd: 'run', qos, messagesPerSecond: messagesPerS, seconds: phaseS },
          'ran',
          (phaseS + 60) * 1000,
        );
        await new Promise((r) => setTimeout(r, 500));
        const after = await mark();
        const messages = after.messages - before.messages;
        figures[`qos${qos}_messages`] = messages;
        figures[`qos${qos}_errors`] = ran.errors;
        figures[`qos${qos}_cpu_us_per_message`] =
          Math.round(((after.cpu_us - before.cpu_us) / Math.max(1, messages)) * 10) / 10;
        figures[`qos${qos}_cores`] = Math.round(((after.cpu_us - before.cpu_us) / 1e6 / phaseS) * 100) / 100;
      }
      return figures;
    } finally {
      await fleet.quit();
      floor.stdin!.write('quit\n');
    }
  },
};
