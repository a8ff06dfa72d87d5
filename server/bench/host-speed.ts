// How fast this host is right now, in two figures taken before the benchmarks: the same work every time, so a day's
// figures can be told apart from the code's. The served ingest path spends its time in two kinds of work, and a shared
// host slows them differently (2026-12-07: the C fleet, nearly all kernel time, needed 1.9× the CPU of the day before
// for the same load; the gateway's event loop 1.2×):
// - `js_ms`: the event loop's kind of work, JSON of telemetry-shaped messages (the median of 5 rounds, in ms);
// - `loopback_write_us`: the kernel's, CPU per 64-byte write over a loopback TCP connection read by the same process
//   (on loopback the writer's system call also runs the receiver's TCP: what a device's publish and its PUBACK cost;
//   the median of 5 rounds of 20,000, in µs).
import net from 'node:net';
import { performance } from 'node:perf_hooks';

const ROUNDS = 5;
const MESSAGES = 20_000;
const WRITES = 20_000;

function jsRound(): number {
  const started = performance.now();
  let n = 0;
  for (let i = 0; i < MESSAGES; i++) {
    const text = JSON.stringify({
      ts: 1_765_000_000_000 + i,
      v: 220 + (i % 17),
      i: 5.1 + (i % 7),
      pf: 0.93,
      name: 'R',
    });
    n += (JSON.parse(text) as { v: number }).v;
  }
  if (n < 0) throw new Error('unreachable');
  return performance.now() - started;
}

async function loopbackWrites(): Promise<number> {
  const server = net.createServer((s) => s.on('data', () => undefined));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const client = net.connect({ port, host: '127.0.0.1', noDelay: true });
  await new Promise<void>((r) => client.once('connect', r));
  const chunk = Buffer.alloc(64, 1);
  const before = process.cpuUsage();
  for (let i = 0; i < WRITES; i++) {
    // one write system call each: wait for the socket to take it before the next
    if (!client.write(chunk)) await new Promise((r) => client.once('drain', r));
    if (i % 64 === 63) await new Promise((r) => setImmediate(r));
  }
  const used = process.cpuUsage(before);
  client.destroy();
  await new Promise((r) => server.close(r));
  return (used.user + used.system) / WRITES;
}

/** the middle of `rounds`, to 0.1 */
const median = (rounds: number[]) => Math.round(rounds.sort((a, b) => a - b)[rounds.length >> 1]! * 10) / 10;

export async function hostSpeed(): Promise<{ js_ms: number; loopback_write_us: number }> {
  const js = Array.from({ length: ROUNDS }, jsRound);
  const writes: number[] = [];
  for (let i = 0; i < ROUNDS; i++) writes.push(await loopbackWrites());
  return { js_ms: median(js), loopback_write_us: median(writes) };
}
