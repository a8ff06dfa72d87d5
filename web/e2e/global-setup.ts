// Starts the built gateway (node server/dist/main.js) on a free loopback port with a throw-away DATA_DIR, waits until
// it answers, and hands its address (and the MQTT broker's TCP port, for device specs) to the workers through
// process.env. The returned function is the teardown.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../server/src/platform/testing/free-port.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OPENAPI = '/service/web/openapi.json';
const READY_TIMEOUT_MS = 30_000;

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(url + OPENAPI, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`gateway did not answer ${OPENAPI} within ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 8000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const main = path.join(ROOT, 'server/dist/main.js');
  for (const built of [main, path.join(ROOT, 'web/dist/index.html')]) {
    if (!fs.existsSync(built)) throw new Error(`${path.relative(ROOT, built)} is missing: run npm run build first`);
  }
  const port = await freePort();
  let mqttPort = await freePort();
  while (mqttPort === port) mqttPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-e2e-'));
  let output = '';
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    // a command to a silent device answers -32 after 3 s instead of 55 s (cards.spec.ts)
    env: {
      ...process.env,
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'off',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      COMMAND_TIMEOUT_MS: '3000',
      REGISTER_THROTTLE_ATTEMPTS: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let stopping = false;
  // a gateway dying in the middle of the run must say so at once, with its last words, not only at teardown
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(
      `e2e gateway exited unexpectedly (code ${code}, signal ${signal}); last output:\n${output.split('\n').slice(-40).join('\n')}`,
    );
  });

  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(url, child, () => output);
  } catch (err) {
    stopping = true;
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}.seal.key`, { force: true }); // the sealing key beside it (seal-key.ts)
    throw err;
  }
  process.env.SENTRA_E2E_URL = url;
  process.env.SENTRA_E2E_MQTT_PORT = String(mqttPort);

  return async () => {
    stopping = true;
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}.seal.key`, { force: true }); // the sealing key beside it (seal-key.ts)
    if (output.trim()) console.log(`gateway output (last lines):\n${output.split('\n').slice(-30).join('\n')}`);
  };
}
