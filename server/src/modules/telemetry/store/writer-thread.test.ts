import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb, findUp } from '../../../platform/db/sqlite.js';
import { createLogger } from '../../../platform/log.js';
import * as schema from '../../../schema.js';
import type { WriteResult } from './write-batch.js';
import { announceWrites, threadExecutor } from './writer-thread.js';
import { createTelemetryPipeline } from '../ingest/pipeline.js';
import { toBatch } from './batch.js';

const submit = (ex: ReturnType<typeof threadExecutor>, id: number) =>
  new Promise<WriteResult>((resolve, reject) =>
    ex.submit(
      toBatch(
        id,
        [
          {
            appId: 1,
            deviceId: 1,
            qos: 0,
            receivedAt: 0,
            states: [],
            points: [{ seriesId: 1, ts: id, num: id, text: null }],
          },
        ],
        null,
      ).batch,
      (err, r) => (err ? reject(err) : resolve(r!)),
    ),
  );

describe('threadExecutor', () => {
  it('fails a batch its thread cannot write, and starts a new thread for the next one', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-wt-')), 'later');
    const ex = threadExecutor(path.join(dir, 'sentra.db'), createLogger('silent'));
    try {
      await expect(submit(ex, 1)).rejects.toThrow(/directory does not exist|unable to open|exited/i);
      const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
      const r = await submit(ex, 2);
      expect(r.id).toBe(2);
      expect(Array.from(r.duplicates)).toEqual([]);
      expect(handle.sqlite.prepare('SELECT ts FROM telemetry_points').pluck().all()).toEqual([2]);
      handle.close();
    } finally {
      await ex.close();
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });
});

describe('checkpoint thread', () => {
  it('copies the WAL into the database file beside the writer, whose commits never checkpoint', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-ckpt-'));
    const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    const ex = threadExecutor(handle.sqlite.name, createLogger('silent'), { checkpointEveryMs: 50 });
    try {
      for (let id = 1; id <= 5; id++) await submit(ex, id);
      const deadline = Date.now() + 5000;
      while (ex.checkpoints!.wal_checkpointed_frames === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(ex.checkpoints!.wal_checkpoints).toBeGreaterThan(0);
      expect(ex.checkpoints!.wal_checkpointed_frames).toBeGreaterThan(0);
      expect(ex.checkpoints!.wal_checkpoint_failures).toBe(0);
      // what was checkpointed is in the database file: a new connection without the WAL's help reads it
      expect(handle.sqlite.prepare('SELECT count(*) FROM telemetry_journal_0').pluck().get()).toBe(0);
      expect(handle.sqlite.prepare('SELECT ts FROM telemetry_points ORDER BY ts').pluck().all()).toEqual([
        1, 2, 3, 4, 5,
      ]);
    } finally {
      await ex.close();
      handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the WAL bounded while batches come back to back: the writer thread finishes a checkpoint and the WAL starts over', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-walcap-'));
    const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    const ex = threadExecutor(handle.sqlite.name, createLogger('silent'), {
      checkpointEveryMs: 100,
      walRestartFrames: 64,
    });
    // 400 points of 50 series a batch, into the clustered table: tens of pages a commit
    const batchOf = (id: number) => {
      const points = Array.from({ length: 400 }, (_, k) => ({
        seriesId: 1 + (k % 50),
        ts: id * 1000 + k,
        num: k,
        text: null,
      }));
      return toBatch(id, [{ appId: 1, deviceId: 1, qos: 0, receivedAt: 0, states: [], points }], null).batch;
    };
    const walBytes = () => fs.statSync(`${handle.sqlite.name}-wal`).size;
    try {
      // the checkpoint thread running first (loaded through tsx here it takes ~1 s, the bundled one a fraction): what is
      // measured is the WAL under steady back-to-back commits, not the thread's start
      for (let i = 0; i < 500 && ex.checkpoints!.wal_checkpoints === 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      // all handed over at once: the thread commits them one after another without a gap
      let largest = 0;
      const sampler = setInterval(() => (largest = Math.max(largest, walBytes())), 5);
      await Promise.all(
        Array.from(
          { length: 1500 },
          (_, k) =>
            new Promise<WriteResult>((resolve, reject) =>
              ex.submit(batchOf(k + 1), (err, r) => (err ? reject(err) : resolve(r!))),
            ),
        ),
      );
      clearInterval(sampler);
      const c = ex.checkpoints!;
      expect(c.wal_checkpoint_failures).toBe(0);
      expect(c.wal_restarts).toBeGreaterThan(0);
      // without starting over, the WAL holds every page written: ~585 MB here (each checkpoint copies 100 ms of commits,
      // during which more come); starting over, ~40 MB at most
      expect(largest).toBeLessThan(150 * 1024 * 1024);
      expect(handle.sqlite.prepare('SELECT count(*) FROM telemetry_points').pluck().get()).toBe(1500 * 400);
    } finally {
      await ex.close();
      handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('announceWrites', () => {
  it('raises the gate while a writing statement runs and lowers it once the synchronous work is over', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-gate-'));
    const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    try {
      const gate = new Int32Array(new SharedArrayBuffer(4));
      announceWrites(handle.sqlite, gate);
      handle.sqlite.exec('CREATE TABLE scratch (v INTEGER)');
      const insert = handle.sqlite.prepare('INSERT INTO scratch (v) VALUES (?)');
      const read = handle.sqlite.prepare('SELECT count(*) FROM scratch').pluck();
      handle.sqlite.transaction(() => {
        insert.run(1);
        insert.run(2);
        expect(Atomics.load(gate, 0)).toBe(2); // held through the enclosing transaction
      })();
      read.get();
      expect(Atomics.load(gate, 0)).toBe(2);
      await Promise.resolve();
      expect(Atomics.load(gate, 0)).toBe(0);
      read.get();
      expect(Atomics.load(gate, 0)).toBe(0); // readers never raise it
    } finally {
      handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps the event loop's writes quick while the writer thread is busy with back-to-back batches", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-gate-'));
    const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    const pipeline = createTelemetryPipeline({
      sqlite: handle.sqlite,
      log: createLogger('silent'),
      resolver: { resolveDevice: (id) => ({ deviceId: Number(id.key), appId: 1, category: 8 }) },
    });
    try {
      handle.sqlite.exec('CREATE TABLE scratch (v INTEGER)');
      const insert = handle.sqlite.prepare('INSERT INTO scratch (v) VALUES (?)');
      const payload = Buffer.from(
        JSON.stringify({ s: { c: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, i])) } }),
      );
      let slowest = 0;
      const until = Date.now() + 1500;
      for (let round = 0; Date.now() < until && round < 10_000; round++) {
        for (let i = 0; i < 200; i++) pipeline.ingest({ key: String(i % 400) }, `d/${i % 400}/data`, payload, 1);
        const t0 = performance.now();
        insert.run(round);
        slowest = Math.max(slowest, performance.now() - t0);
        await new Promise((r) => setTimeout(r, 2));
      }
      await pipeline.flush();
      expect((pipeline.metrics() as { stored_points: number }).stored_points).toBeGreaterThan(0);
      expect(slowest).toBeLessThan(1000);
    } finally {
      await pipeline.close();
      handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
