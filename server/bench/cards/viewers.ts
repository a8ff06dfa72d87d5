// The viewers of the cards live benchmark, run as their own Node process: socket.io clients signed in as the bench
// tenant, each subscribed to one dashboard. A card's value is the `sent_at` the device put in its message, so every
// push carries its own publish time: latency = arrival − value. Driven over IPC by cards.bench.ts:
// `start` → `{ready}`, `measure` (reset samples) → `{measuring}`, `report` → `{samples, p50_ms, p99_ms, ...}`.
import { io, type Socket } from 'socket.io-client';

type Command =
  | { cmd: 'start'; url: string; auth: Record<string, string>; dashboards: number[]; viewers: number }
  | { cmd: 'measure' }
  | { cmd: 'report' };

const sockets: Socket[] = [];
let samples: number[] = [];
let measuring = false;
let pushes = 0;
const send = (m: unknown) => process.send?.(m);

async function start(m: Extract<Command, { cmd: 'start' }>) {
  let subscribed = 0;
  await Promise.all(
    Array.from({ length: m.viewers }, async (_, i) => {
      const s = io(m.url, {
        auth: m.auth,
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        timeout: 20_000,
      });
      sockets.push(s);
      await new Promise<void>((resolve, reject) => {
        s.once('connect', () => resolve());
        s.once('connect_error', reject);
      });
      s.on('card', (p: { mode: string; data: { value?: unknown } }) => {
        pushes++;
        if (!measuring || p.mode !== 'full' || typeof p.data.value !== 'number') return;
        samples.push(Date.now() - p.data.value);
      });
      const ack = await s.timeout(20_000).emitWithAck('subscribe', {
        channel: 'dashboard',
        params: { dashboard_id: m.dashboards[i % m.dashboards.length] },
      });
      if (ack?.response_result === 0) subscribed++;
    }),
  );
  return { ready: sockets.filter((s) => s.connected).length, subscribed };
}

function pct(values: number[], p: number) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

process.on('message', async (m: Command) => {
  if (m.cmd === 'start') send({ cmd: 'started', ...(await start(m).catch((err) => ({ error: String(err) }))) });
  else if (m.cmd === 'measure') {
    samples = [];
    pushes = 0;
    measuring = true;
    send({ cmd: 'measuring' });
  } else {
    measuring = false;
    send({
      cmd: 'reported',
      samples: samples.length,
      pushes,
      p50_ms: pct(samples, 50),
      p95_ms: pct(samples, 95),
      p99_ms: pct(samples, 99),
      max_ms: samples.length ? Math.max(...samples) : NaN,
    });
    sockets.forEach((s) => s.close());
    setTimeout(() => process.exit(0), 100);
  }
});
process.on('disconnect', () => process.exit(0));
// never outlive the benchmark
setTimeout(() => process.exit(3), 5 * 60_000).unref();
