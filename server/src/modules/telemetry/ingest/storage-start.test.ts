import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findUp, openDb } from '../../../platform/db/sqlite.js';
import { createLogger } from '../../../platform/log.js';
import * as schema from '../../../schema.js';
import { startTelemetryStorage, type StorageStartOptions } from './storage-start.js';

const log = createLogger('silent');
const DAY = 86_400_000;
const NOW = Date.UTC(2024, 0, 10);
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

function open() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-storage-start-'));
  const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  cleanup.push(() => {
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const writers = () =>
    handle.sqlite.prepare('SELECT writer FROM telemetry_writer_state ORDER BY writer').pluck().all() as string[];
  const start = (extra: Partial<StorageStartOptions> = {}) => {
    const storage = startTelemetryStorage({
      sqlite: handle.sqlite,
      log,
      now: () => NOW,
      journaled: true,
      writerThread: false,
      maxSeriesPerDevice: 10,
      ...extra,
    });
    cleanup.push(() => storage.executor.close());
    return storage;
  };
  return { sqlite: handle.sqlite, writers, start };
}

describe('telemetry storage at start', () => {
  it("keeps this writer's row until it closes with every rollup delta merged, and forgets rows older than a week", () => {
    const { sqlite, writers, start } = open();
    const row = sqlite.prepare(
      'INSERT INTO telemetry_writer_state (writer, rollup_generation, updated_at) VALUES (?, 0, ?)',
    );
    row.run('crashed-long-ago', NOW - 8 * DAY);
    const storage = start();
    expect(storage.recent).not.toBeNull();
    expect(writers()).toEqual([storage.origin]);
    storage.rollups.add(1, NOW, 1);
    storage.closedCleanly();
    expect(writers(), 'deltas still pending: the row stays and the next start repairs').toEqual([storage.origin]);
    storage.rollups.snapshot();
    storage.rollups.snapshotStored();
    storage.closedCleanly();
    expect(writers()).toEqual([]);
  });

  it('without a journal (scale-out over NATS): no points held in memory and no writer row', () => {
    const { writers, start } = open();
    const storage = start({ journaled: false });
    expect(storage.recent).toBeNull();
    expect(writers()).toEqual([]);
  });

  it('writes on the writer thread for a database file unless told not to', () => {
    const { start } = open();
    expect(start({ writerThread: false }).executor.threaded).toBe(false);
    expect(start({ writerThread: true }).executor.threaded).toBe(true);
  });

  it('answers whether the clustered table holds a (series, ts)', () => {
    const { sqlite, start } = open();
    const storage = start();
    const answer = storage.series.resolveAll(1, 1, [
      { sensor: 's', configtype: 'c', param: 'p', subparam: '', datatype: 'number' },
    ]);
    if (!Array.isArray(answer)) throw new Error('answered later: the write lock was held');
    const s = answer[0];
    if (typeof s !== 'object') throw new Error(`no series: ${s}`);
    sqlite.prepare('INSERT INTO telemetry_points (series_id, ts, num) VALUES (?, ?, ?)').run(s.id, 5, 1);
    expect(storage.storedAt(s.id, 5)).toBe(true);
    expect(storage.storedAt(s.id, 6)).toBe(false);
  });
});
