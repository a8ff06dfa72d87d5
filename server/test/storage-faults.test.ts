// Storage faults are clear (issue 24): a disk that fills while devices publish stops the acknowledgements (nothing
// acknowledged is lost), says so once in the log, answers HTTP with a clean 503 instead of -99, and resumes by itself
// when space returns; a DATA_DIR that cannot be used stops the start with one line naming it and the reason.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { authContract, Result } from '@sentra/contracts';
import { call } from './harness.js';
import { addDevice, tenantWithApp, until } from './fixtures.js';
import { runGatewayToExit, spawnGateway, stopGateway } from './gateway-process.kit.js';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const tmp = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** a tmpfs of `size` at a new directory, or null when this process may not mount (not root, a container without it) */
function tmpfs(size: string, options = ''): string | null {
  const dir = tmp('sentra-tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}${options ? `,${options}` : ''}`, 'tmpfs', dir], {
      stdio: 'pipe',
    });
  } catch {
    return null;
  }
  cleanup.push(() => {
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    } catch {
      // already gone
    }
  });
  return dir;
}

/** fills the file system of `dir` until it has no room left (the file is removed to give the room back) */
function fill(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (let i = 0; i < 100_000; i++) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  // the last few bytes too
  try {
    for (let i = 0; i < 100_000; i++) fs.writeSync(fd, Buffer.alloc(512, 1));
  } catch {
    // full
  }
  fs.closeSync(fd);
  return file;
}

/** the gateway's output, but only the lines it printed itself (not Node's warnings about loaders) */
const ownLines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.trim() !== '' && !/ExperimentalWarning|--trace-warnings|node --import|^\(node:\d+\)/.test(l));

describe('DATA_DIR at start', () => {
  it('is a file: one line naming DATA_DIR, a non-zero exit', async () => {
    const file = path.join(tmp('sentra-dd-'), 'not-a-dir');
    fs.writeFileSync(file, 'x');
    const r = await runGatewayToExit(file);
    expect(r.code).not.toBe(0);
    expect(ownLines(r.output)).toEqual([`DATA_DIR ${JSON.stringify(file)} cannot be used: it is not a directory`]);
  }, 60_000);

  it('has a missing parent: one line, nothing created; a missing last level is created', async () => {
    const base = tmp('sentra-dd-');
    const deep = path.join(base, 'tidak-ada', 'data');
    const r = await runGatewayToExit(deep);
    expect(r.code).not.toBe(0);
    expect(ownLines(r.output)).toEqual([
      `DATA_DIR ${JSON.stringify(deep)} cannot be used: it does not exist, nor does its parent ${JSON.stringify(path.dirname(deep))}`,
    ]);
    expect(fs.existsSync(path.dirname(deep))).toBe(false);
    const fresh = path.join(base, 'baru');
    const ok = await runGatewayToExit(fresh);
    expect(ok.output).toContain(`DATA_DIR ${JSON.stringify(fresh)} created`);
    expect(fs.existsSync(path.join(fresh, 'sentra.db'))).toBe(true);
  }, 90_000);

  it('cannot be read by the gateway: one line naming DATA_DIR and the reason', async () => {
    const dir = tmp('sentra-unread-');
    // root reads anything: the gateway then runs as nobody, for whom a root-owned directory of mode 700 is closed
    const root = process.getuid?.() === 0;
    fs.chmodSync(dir, root ? 0o700 : 0o000);
    cleanup.push(() => fs.chmodSync(dir, 0o700));
    const r = await runGatewayToExit(dir, {}, 30_000, root ? { uid: 65534, gid: 65534 } : undefined);
    expect(r.code).not.toBe(0);
    expect(ownLines(r.output)).toEqual([
      `DATA_DIR ${JSON.stringify(dir)} cannot be used: it cannot be read (permission denied)`,
    ]);
  }, 60_000);

  it('is full or read-only: one line naming DATA_DIR and the reason (skipped where tmpfs cannot be mounted)', async (ctx) => {
    const full = tmpfs('2m');
    if (!full) return ctx.skip('mount -t tmpfs not permitted here: the full and read-only DATA_DIR cases are not run');
    fill(full);
    const r = await runGatewayToExit(full);
    expect(r.code).not.toBe(0);
    expect(ownLines(r.output)).toEqual([
      `DATA_DIR ${JSON.stringify(full)} cannot be used: it cannot be written (the disk is full (no room for 1 MiB))`,
    ]);

    const ro = tmpfs('4m', 'ro')!;
    const r2 = await runGatewayToExit(ro);
    expect(r2.code).not.toBe(0);
    expect(ownLines(r2.output)).toEqual([
      `DATA_DIR ${JSON.stringify(ro)} cannot be used: it cannot be written (it is on a read-only file system)`,
    ]);
  }, 90_000);
});

describe('a disk that fills while devices publish', () => {
  it('stops acknowledging, logs once with the points held, answers HTTP 503, resumes when space returns and loses nothing acknowledged', async (ctx) => {
    const dataDir = tmpfs('48m');
    if (!dataDir) return ctx.skip('mount -t tmpfs not permitted here: the disk-full test is not run');
    const gw = await spawnGateway(dataDir);
    cleanup.push(async () => {
      gw.child.kill('SIGKILL');
      await gw.exited;
    });
    const owner = await tenantWithApp(gw.url);
    const d = await addDevice(gw.url, { tenant: owner.tenant, domain: owner.domain }, 'mqtt');
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, {
      username: d.store_mqtt_username,
      password: d.store_mqtt_password,
      reconnectPeriod: 0,
    });
    cleanup.push(() => void client.end(true));
    const acked: number[] = [];
    const base = Date.now() - 3_600_000;
    let next = 0;
    let inFlight = 0;
    let publishing = true;
    const pump = () => {
      while (publishing && client.connected && inFlight < 20) {
        const ts = base + next++;
        inFlight++;
        client.publish(
          `d/${d.id}/data`,
          JSON.stringify({ _ts: ts, env: { data: { n: next, teks: 'x'.repeat(200) } } }),
          { qos: 1 },
          (err) => {
            inFlight--;
            // an error is the connection ending (the test's end): publishing stops, or this loop would never leave
            if (err) publishing = false;
            else acked.push(ts);
            setImmediate(pump);
          },
        );
      }
    };
    pump();
    expect(await until(() => acked.length > 200, 10_000)).toBe(true);

    const filler = fill(dataDir);
    // the writer's next batches fail: acknowledgements stop (what was in flight may still have committed)
    expect(await until(() => gw.output().includes('telemetry storage failing'), 15_000)).toBe(true);
    const stalledAt = acked.length;
    // time for an acknowledgement that should not come (the gateway runs in another process: no fault counter to read)
    await new Promise((r) => setTimeout(r, 1500));
    expect(acked.length).toBe(stalledAt);
    expect(gw.output().match(/telemetry storage failing, ingest stops acknowledging: \d+ points held/g)).toHaveLength(
      1,
    );
    // HTTP: a write that fails on storage is a clean 503 with the storage code, never 500/-99
    const login = await call(gw.url, authContract.tenantLogin, { input: owner.username, pass: owner.pass });
    expect(login.status).not.toBe(500);
    if (login.status !== 200)
      expect([login.status, login.body.response_result]).toEqual([503, Result.STORAGE_UNAVAILABLE]);

    fs.rmSync(filler);
    expect(await until(() => acked.length > stalledAt + 100, 20_000)).toBe(true);
    expect(gw.output()).toMatch(/telemetry storage writable again after [\d.]+ s/);
    publishing = false;
    await until(() => inFlight === 0, 5000);
    await client.endAsync();
    expect(await stopGateway(gw)).toBe(0);

    const db = new Database(path.join(dataDir, 'sentra.db'), { readonly: true });
    const stored = new Set(
      db
        .prepare(
          `SELECT p.ts FROM telemetry_points p JOIN telemetry_series s ON s.id = p.series_id WHERE s.device_id = ? AND s.param = 'n'`,
        )
        .pluck()
        .all(d.id) as number[],
    );
    db.close();
    expect(acked.filter((ts) => !stored.has(ts))).toEqual([]);
  }, 120_000);
});
