// The gateway's liveness answered off its event loop, for a load balancer's health check (LIVENESS_PORT; the layout
// behind HAProxy, docs/decisions/deployment.md). A small thread serves `GET /health` on a port of its own and answers
// 200 while the event loop turns, 503 once it has not turned for LIVENESS_STALL_MS: a gateway busy at its limit (the
// loop late by a few hundred milliseconds, devices slowed) stays in the pool, a hung one leaves it. The public health
// call (`/service/web/system/health`) is answered on the event loop, so under overload it times out like any call.
// The event loop's proof of turning is a counter in shared memory it advances every BEAT_MS; the thread never asks it
// anything. The thread dies with the process (its port then refuses), and closing the gateway closes it first.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import { workerEntry } from '../worker-entry.js';
import type { LivenessThreadData } from './liveness.worker.js';

/** how often the event loop advances its counter */
export const BEAT_MS = 100;

export interface Liveness {
  /** the port bound (LIVENESS_PORT, or the ephemeral one when 0) */
  readonly port: number;
  /** stops the beat and the thread: checks are refused from then on */
  close(): Promise<void>;
}

export interface LivenessOptions {
  host: string;
  port: number;
  /** the event loop not turning for longer than this is "not alive" */
  stallMs: number;
  log: Logger;
}

export async function startLiveness(o: LivenessOptions): Promise<Liveness> {
  const turns = new Int32Array(new SharedArrayBuffer(4));
  const beat = setInterval(() => Atomics.add(turns, 0, 1), BEAT_MS);
  beat.unref();
  const entry = workerEntry(import.meta.url, 'liveness.worker');
  const workerData: LivenessThreadData = { host: o.host, port: o.port, stallMs: o.stallMs, turns: turns.buffer };
  const worker = new Worker(entry.script, { eval: entry.eval, workerData });
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      worker.once('message', (m: { port: number }) => resolve(m.port));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the liveness thread exited (${code}) before listening`)));
    });
  } catch (err) {
    clearInterval(beat);
    await worker.terminate();
    throw err;
  }
  worker.removeAllListeners();
  worker.on('error', (err) => o.log.error('the liveness thread failed: health checks are refused', err));
  // the process ends when the gateway is done, whatever this thread does
  worker.unref();
  let closing: Promise<void> | undefined;
  return {
    port,
    close: () =>
      (closing ??= (async () => {
        clearInterval(beat);
        await worker.terminate();
      })()),
  };
}
