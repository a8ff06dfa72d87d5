// The liveness thread (liveness.ts): answers `GET /health` with 200 while the event loop's counter moves, 503 when it
// has not moved for `stallMs`. It reads the counter on every request and every POLL_MS, so "not moved for" is
// measured to within POLL_MS whatever the balancer's check interval.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

export interface LivenessThreadData {
  host: string;
  port: number;
  stallMs: number;
  /** an Int32Array's buffer: [0] the event loop's turn counter */
  turns: SharedArrayBuffer;
}

const POLL_MS = 50;

const data = workerData as LivenessThreadData;
const turns = new Int32Array(data.turns);
let seen = Atomics.load(turns, 0);
let movedAt = performance.now();

/** how long the event loop's counter has not moved (ms) */
function stalledMs(): number {
  const now = performance.now();
  const t = Atomics.load(turns, 0);
  if (t !== seen) {
    seen = t;
    movedAt = now;
  }
  return now - movedAt;
}
setInterval(stalledMs, POLL_MS);

const server = http.createServer((req, res) => {
  if (req.method !== 'GET' || req.url !== '/health') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  const stalled = Math.round(stalledMs());
  const alive = stalled <= data.stallMs;
  res
    .writeHead(alive ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
    .end(JSON.stringify({ status: alive ? 'ok' : 'stalled', event_loop_stalled_ms: stalled }));
});
// a check that never finishes its request holds nothing for long
server.requestTimeout = 5_000;
server.headersTimeout = 5_000;
server.listen(data.port, data.host, () => parentPort!.postMessage({ port: (server.address() as AddressInfo).port }));
