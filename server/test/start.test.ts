// `npm start` (scripts/start.mjs) with PORT=0 and MQTT_PORT=0: the gateway binds free ports and tells the launcher,
// whose demo fleet then registers its devices and publishes against those ports (it used to aim at port 0 and never
// start). Runs the built gateway (`npm run build`; the launcher rebuilds it when stale).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findUp } from '../src/platform/db/sqlite.js';
import { accepts, until } from './fixtures.js';

const root = path.dirname(findUp('scripts', import.meta.url));
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

/** the launcher with PORT=0 and MQTT_PORT=0 (its own process group: the cleanup takes its children too) */
function launch(env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-start-'));
  const launcher = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      MQTT_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
  cleanup.push(async () => {
    try {
      process.kill(-launcher.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}.seal.key`, { force: true }); // the sealing key beside it (seal-key.ts)
  });
  let output = '';
  launcher.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
  launcher.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
  /** waits until the output matches `re` */
  const seen = async (re: RegExp, ms: number): Promise<RegExpMatchArray> => {
    if (!(await until(() => re.test(output), ms))) throw new Error(`not seen in ${ms} ms: ${re}\n${output}`);
    return output.match(re)!;
  };
  return { launcher, exited, seen };
}

describe('npm start', () => {
  it('runs the demo fleet against the ports the gateway bound when PORT=0 and MQTT_PORT=0', async () => {
    const { launcher, exited, seen } = launch();
    const [, port] = await seen(/Sentra console at http:\/\/127\.0\.0\.1:(\d+)\/admin\/login/, 60_000);
    const [, mqttPort] = await seen(/MQTT broker on 127\.0\.0\.1:(\d+) \(TCP; \d+ threads?, native reader\)/, 5_000);
    expect(Number(port)).toBeGreaterThan(0);
    expect(Number(mqttPort)).toBeGreaterThan(0);
    await seen(
      new RegExp(
        `starting \\d+ simulated devices against http://127\\.0\\.0\\.1:${port} \\(mqtt://127\\.0\\.0\\.1:${mqttPort}\\)`,
      ),
      30_000,
    );
    const [, live] = await seen(/(\d+) devices live/, 60_000);
    expect(Number(live)).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${port}/admin/login`)).status).toBe(200);

    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 150_000);

  it('stops the gateway when the launcher is killed (no signal reaches the gateway)', async () => {
    const { launcher, seen } = launch({ DEMO: 'off' });
    const [, port] = await seen(/Sentra console at http:\/\/127\.0\.0\.1:(\d+)\/admin\/login/, 60_000);
    expect(await accepts(Number(port))).toBe(true);
    launcher.kill('SIGKILL');
    await seen(/launcher gone: shutting down/, 10_000);
    expect(await until(async () => !(await accepts(Number(port))), 10_000)).toBe(true);
  }, 90_000);
});
