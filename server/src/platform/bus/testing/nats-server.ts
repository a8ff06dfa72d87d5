// Test support: starts a real nats-server on a free loopback port and stops it, for the bus contract suite and the
// scale-out tests. Never imported by the gateway itself.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { required } from '../../testing/required.js';
import { freePort } from '../../testing/free-port.js';

/** whether nats-server is installed (CI fails here when it is not: testing/required.ts) */
export const hasNatsServer = required(
  'nats-server',
  spawnSync('nats-server', ['--version'], { stdio: 'ignore' }).status === 0,
  'apt-get install nats-server',
);

export interface NatsServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** freezes the server (SIGSTOP): what gateways publish waits in their clients, nothing is delivered */
  pause(): void;
  /** lets a paused server run again (SIGCONT) */
  resume(): void;
}

export { freePort };

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** Starts nats-server (on `port`, else a free one) and resolves once it accepts connections (at most ~5 s). */
export async function startNatsServer(port?: number): Promise<NatsServer> {
  port ??= await freePort();
  const child: ChildProcess = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => (exited = true));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (exited) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
  for (let i = 0; i < 100; i++) {
    if (exited) throw new Error('nats-server exited during start');
    if (await canConnect(port))
      return {
        url: `nats://127.0.0.1:${port}`,
        port,
        stop,
        pause: () => void child.kill('SIGSTOP'),
        resume: () => void child.kill('SIGCONT'),
      };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error('nats-server did not start within 5 s');
}
