// The deployment's id on both engines: made once, and the same for gateways opening a new shared database at once.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import * as schema from '../../schema.js';
import { deploymentId, deploymentIdOf } from './deployment.js';
import { openPostgres } from './postgres.js';
import { findUp, openDb } from './sqlite.js';
import { postgresStore, sqliteStore, type Store } from './store.js';
import { hasPostgres, testDatabase } from './testing/postgres.js';

type AnyStore = Store<typeof schema>;
/** `n` gateways' stores over one new database; closing them */
interface Shared {
  stores: AnyStore[];
  /** SQLite: its DATA_DIR */
  dir?: string;
  close(): Promise<void>;
}

async function sqliteShared(n: number): Promise<Shared> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-deployment-id-'));
  const handles = Array.from({ length: n }, () =>
    openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) }),
  );
  return {
    dir,
    stores: handles.map((h) => sqliteStore(h.sqlite, schema)),
    close: async () => {
      handles.forEach((h) => h.close());
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** the id a gateway process reads from the SQLite database in `dir` (testing/deployment-id.child.ts) */
function inProcess(dir: string): Promise<string> {
  const child = path.join(path.dirname(new URL(import.meta.url).pathname), 'testing', 'deployment-id.child.ts');
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', child, dir], { timeout: 30_000 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    ),
  );
}

async function postgresShared(n: number): Promise<Shared> {
  const url = await testDatabase();
  const migrationsFolder = findUp('drizzle-pg', import.meta.url);
  const handles = await Promise.all(Array.from({ length: n }, () => openPostgres({ url, migrationsFolder, max: 4 })));
  return {
    stores: handles.map((h) => postgresStore(h.pool, schema)),
    close: async () => {
      for (const h of handles) await h.close();
    },
  };
}

for (const [name, shared, skip] of [
  ['SQLite', sqliteShared, false],
  ['PostgreSQL', postgresShared, !hasPostgres],
] as const)
  describe.skipIf(skip)(`the deployment id (${name})`, () => {
    let open: Shared | undefined;
    afterEach(async () => {
      await open?.close();
      open = undefined;
    });

    it('is made once and read back the same by every gateway opening a new database at once', async () => {
      open = await shared(4);
      // every pool connected first: the gateways' reads and inserts overlap, not their connection set-up
      if (name === 'PostgreSQL')
        await Promise.all(open.stores.flatMap((s) => [s.one(sql`SELECT 1`), s.one(sql`SELECT 1`)]));
      const ids = await Promise.all(
        name === 'SQLite'
          ? // a process each: one process's connections would wait on each other's lock holding the event loop
            Array.from({ length: 4 }, () => inProcess(open!.dir!))
          : open.stores.flatMap((s) => [deploymentIdOf(s), deploymentIdOf(s)]),
      );
      expect(ids[0]).toMatch(/^[0-9a-f]{16}$/);
      expect(new Set(ids).size).toBe(1);
      const rows = await open.stores[0]!.rows<{ id: string }>(sql`SELECT id FROM deployment`);
      expect(rows.map((r) => r.id)).toEqual([ids[0]]);
      // a later start reads it
      expect(await deploymentIdOf(open.stores[1]!)).toBe(ids[0]);
    });

    it('differs between two databases', async () => {
      const other = await shared(1);
      try {
        open = await shared(1);
        expect(await deploymentIdOf(open.stores[0]!)).not.toBe(await deploymentIdOf(other.stores[0]!));
      } finally {
        await other.close();
      }
    });
  });

describe('the deployment id on SQLite, synchronously (the composition today)', () => {
  it('is the one the store reads', async () => {
    const h = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    try {
      const id = deploymentId(h.sqlite);
      expect(await deploymentIdOf(sqliteStore(h.sqlite, schema))).toBe(id);
      expect(deploymentId(h.sqlite)).toBe(id);
    } finally {
      h.close();
    }
  });
});
