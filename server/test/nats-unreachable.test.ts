// A gateway started with BUS=nats while its NATS server is down (issue 27): it says so in its log, naming NATS_URL,
// retries for NATS_CONNECT_TIMEOUT_MS, then stops with a one-line start-up error instead of waiting silently.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NatsUnreachableError } from '../src/platform/bus/nats-connect.js';
import { freePort } from '../src/platform/bus/testing/nats-server.js';
import { findUp } from '../src/platform/db/sqlite.js';
import { startGateway } from './harness.js';

const root = path.dirname(findUp('scripts', import.meta.url));

describe('BUS=nats with the NATS server down', () => {
  it('fails the start after NATS_CONNECT_TIMEOUT_MS with an error naming NATS_URL', async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const start = startGateway({ BUS: 'nats', NATS_URL: url, NATS_CONNECT_TIMEOUT_MS: '800' });
    await expect(start).rejects.toBeInstanceOf(NatsUnreachableError);
    await expect(start).rejects.toThrow(`no NATS server reachable at NATS_URL=${url}`);
  });

  it('the gateway process logs the retry, prints one error line naming NATS_URL and exits with code 2', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-nats-down-'));
    const url = `nats://127.0.0.1:${await freePort()}`;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
        cwd: root,
        env: {
          ...process.env,
          PORT: '0',
          MQTT_PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
          BUS: 'nats',
          NATS_URL: url,
          NATS_CONNECT_TIMEOUT_MS: '1000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      clearTimeout(killer);
      expect(code, stdout + stderr).toBe(2);
      const lines = stderr.trim().split('\n');
      expect(lines[0]).toMatch(
        new RegExp(
          `WARN \\[sentra\\] BUS=nats: NATS not reachable at NATS_URL=${url} \\(CONNECTION_REFUSED\\); retrying for up to 1 s`,
        ),
      );
      expect(lines.at(-1)).toMatch(
        new RegExp(
          `^BUS=nats: no NATS server reachable at NATS_URL=${url} within [\\d.]+ s .*NATS_CONNECT_TIMEOUT_MS=1000 sets the wait\\)$`,
        ),
      );
      expect(stdout).not.toContain('Sentra console at');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 40_000);
});
