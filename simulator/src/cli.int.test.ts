// `npm run sim` with stderr piped (a log file, CI): progress arrives as log lines while the fleet runs, and stdout
// stays the JSON summary alone.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Running } from '../../server/test/harness.js';
import { tenantSession } from '../../server/test/fixtures.js';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts');
let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw?.stop());

describe('npm run sim when stderr is not a terminal', () => {
  it('prints a progress line every --progress seconds with the devices connected and the messages sent per second', async () => {
    const t = await tenantSession(gw.url);
    const args = [
      '--devices',
      '4',
      '--rate',
      '2',
      '--duration',
      '5',
      '--progress',
      '1',
      '--url',
      gw.url,
      '--mqtt',
      `mqtt://127.0.0.1:${gw.mqttPort}`,
      '--username',
      t.username,
      '--password',
      t.pass,
      '--domain',
      'simprogress',
    ];
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(killer);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('\r');
    const running = stderr.split('\n').filter((l) => / sentra sim running: /.test(l));
    // 5 s at one line a second, plus the line once the fleet runs (a busy machine may lose one)
    expect(running.length, stderr).toBeGreaterThanOrEqual(4);
    for (const line of running)
      expect(line).toMatch(
        /^\d{4}-\d\d-\d\dT[\d:.]+Z sentra sim running: \d+ devices connected \(\d+\/4 registered\), \d+\.\d msg\/s sent, \d+ messages, \d+ errors$/,
      );
    expect(
      running.some((l) => / [1-9]\d* devices connected/.test(l) && !/ 0\.0 msg\/s/.test(l)),
      stderr,
    ).toBe(true);
    expect(JSON.parse(stdout).summary).toMatchObject({ planned: 4 });
  }, 60_000);
});
