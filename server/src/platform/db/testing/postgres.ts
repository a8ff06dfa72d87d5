// Test support: a real PostgreSQL (Debian's `postgresql` package) in a throw-away cluster on a free loopback port,
// started with initdb and pg_ctl as the `postgres` user when the tests run as root. Never imported by the gateway.
// One cluster serves a whole vitest run (vitest.global-setup.ts); each suite takes a fresh database of its own
// (`testDatabase`), and a suite that restarts or kills PostgreSQL starts a cluster of its own (`startPostgres`).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { required } from '../../testing/required.js';
import { freePort } from '../../bus/testing/nats-server.js';

/** the directory of PostgreSQL's programs (Debian keeps them per major version), or '' when none is installed */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length) return path.join(root, versions[0]!, 'bin');
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return which.status === 0 ? path.dirname(which.stdout.trim()) : '';
}

const binDir = postgresBinDir();

/** whether PostgreSQL can be started here (CI fails here when it cannot: testing/required.ts) */
export const hasPostgres = required('PostgreSQL', binDir !== '', 'apt-get install postgresql');

export interface Postgres {
  /** the cluster's `postgres` database, for administration */
  adminUrl: string;
  port: number;
  /** a new empty database in this cluster; its URL */
  createDatabase(name?: string): Promise<string>;
  /** pg_ctl restart: `fast` ends sessions cleanly, `immediate` is a crash (recovery from the WAL at start) */
  restart(mode: 'fast' | 'immediate', downMs?: number): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** stops the cluster and removes its directory */
  destroy(): Promise<void>;
}

// PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user Debian's package creates
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function run(cmd: string, args: string[], owner: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(binDir, cmd), args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(owner ?? {}),
      env: { ...process.env, LC_ALL: 'C' },
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err.trim()}`))));
  });
}

let seq = 0;

/**
 * Starts a cluster of its own: initdb (trust on loopback, no fsync of the cluster's creation), pg_ctl start on a free
 * port with the socket in the cluster's directory. `settings` are extra `-c` settings (tests use `fsync=off`: a killed
 * process loses nothing the OS holds; only a machine crash would).
 */
export async function startPostgres(settings: Record<string, string> = {}): Promise<Postgres> {
  if (!binDir) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const owner = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-pg-'));
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const data = path.join(dir, 'data');
  await run(
    'initdb',
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    owner,
  );
  const port = await freePort();
  const options = Object.entries({
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: dir,
    max_connections: '200',
    ...settings,
  })
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');
  const log = path.join(dir, 'log');
  const start = () => run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start'], owner);
  const stop = (mode: 'fast' | 'immediate' = 'fast') =>
    run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'], owner);
  await start();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    adminUrl,
    port,
    createDatabase: (name?: string) => createDatabaseAt(adminUrl, name),
    async restart(mode, downMs = 0) {
      await stop(mode);
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    stop,
    start,
    async destroy() {
      await stop('immediate').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** the shared cluster's admin URL, set by vitest.global-setup.ts for the whole run */
export const SHARED_PG_ENV = 'SENTRA_TEST_PG_ADMIN_URL';

/** A fresh database for one suite, in the run's shared cluster (vitest.global-setup.ts). Resolves to its URL. */
export async function testDatabase(): Promise<string> {
  const admin = process.env[SHARED_PG_ENV];
  if (!admin) throw new Error(`${SHARED_PG_ENV} is not set: the run's global setup starts the shared cluster`);
  return createDatabaseAt(admin);
}

/**
 * Creates database `name` (a fresh unique one by default) on the server of `url`, signed in as `url` says; resolves to
 * `url` naming the new database instead.
 */
export async function createDatabaseAt(
  url: string,
  name = `t_${process.pid}_${++seq}_${Date.now().toString(36)}`,
): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}
