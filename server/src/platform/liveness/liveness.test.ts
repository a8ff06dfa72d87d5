// The liveness thread (liveness.ts) with real HTTP: 200 while the event loop turns, 503 while it is blocked longer than
// the stall bound and 200 again after, 404 elsewhere, refused once closed. The checks come from a thread of the test's
// own, so they go on while the test blocks its event loop (the gateway's, here).
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import { startLiveness, type Liveness } from './liveness.js';

const log = createLogger('silent');
const started: Liveness[] = [];
afterEach(async () => {
  for (const l of started.splice(0)) await l.close();
});

async function live(stallMs = 300) {
  const l = await startLiveness({ host: '127.0.0.1', port: 0, stallMs, log });
  started.push(l);
  return l;
}

/** a balancer's checks from another thread: the status of a GET /health every `everyMs`, for `forMs` */
function checks(port: number, everyMs: number, forMs: number): Promise<Array<number | string>> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const seen = [];
    const end = Date.now() + workerData.forMs;
    (async () => {
      while (Date.now() < end) {
        const at = Date.now();
        try {
          const r = await fetch('http://127.0.0.1:' + workerData.port + '/health', { signal: AbortSignal.timeout(500) });
          seen.push(r.status);
        } catch (e) {
          seen.push('failed');
        }
        await new Promise((r) => setTimeout(r, Math.max(0, workerData.everyMs - (Date.now() - at))));
      }
      parentPort.postMessage(seen);
    })();`;
  const w = new Worker(code, { eval: true, workerData: { port, everyMs, forMs } });
  return new Promise((resolve, reject) => {
    w.once('message', (seen) => (resolve(seen), void w.terminate()));
    w.once('error', reject);
  });
}

const blockFor = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};

describe('the liveness check off the event loop', () => {
  it('answers 200 with how long the loop has not turned, and 404 for anything but GET /health', async () => {
    const l = await live();
    const r = await fetch(`http://127.0.0.1:${l.port}/health`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const body = (await r.json()) as { status: string; event_loop_stalled_ms: number };
    expect(body.status).toBe('ok');
    expect(body.event_loop_stalled_ms).toBeLessThan(300);
    expect((await fetch(`http://127.0.0.1:${l.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${l.port}/health`, { method: 'POST' })).status).toBe(404);
  });

  it('answers while the loop is busy but turning, 503 while it is blocked past the bound, and 200 again after', async () => {
    // the bound well above a loaded test machine's timer delays
    const l = await live(600);
    const busy = checks(l.port, 50, 1_500);
    // busy: 1 s of 40 ms blocks, the loop turning between them
    await new Promise((r) => setTimeout(r, 200));
    const busyUntil = Date.now() + 1_000;
    while (Date.now() < busyUntil) {
      blockFor(40);
      await new Promise((r) => setImmediate(r));
    }
    const statuses = await busy;
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.every((s) => s === 200)).toBe(true);

    // hung: blocked for 1.5 s, past the bound
    const hung = checks(l.port, 50, 2_500);
    await new Promise((r) => setTimeout(r, 300));
    blockFor(1_500);
    const during = await hung;
    expect(during).toContain(503);
    // it recovers: the last checks, after the block, are 200 again
    expect(during.at(-1)).toBe(200);
    expect(during.every((s) => s === 200 || s === 503)).toBe(true);
  });

  it('refuses checks once closed, and fails to start on a port in use', async () => {
    const l = await live();
    await expect(startLiveness({ host: '127.0.0.1', port: l.port, stallMs: 300, log })).rejects.toThrow(/EADDRINUSE/);
    await l.close();
    await expect(fetch(`http://127.0.0.1:${l.port}/health`)).rejects.toThrow();
  });
});
