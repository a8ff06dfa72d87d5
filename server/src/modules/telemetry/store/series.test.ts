// The series registry as ingest uses it: a device's points resolved message after message (the last keys remembered
// per device), new keys, a changed datatype, a device forgotten.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { findUp, openDb } from '../../../platform/db/sqlite.js';
import { createLogger } from '../../../platform/log.js';
import * as schema from '../../../schema.js';
import { startTelemetryStorage } from '../ingest/storage-start.js';
import type { Datatype } from '../datatypes.js';

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.reverse()) fn();
  cleanup = [];
});

function registry() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-series-'));
  const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  const storage = startTelemetryStorage({
    sqlite: handle.sqlite,
    log: createLogger('silent'),
    now: () => 1_700_000_000_000,
    journaled: true,
    writerThread: false,
    maxSeriesPerDevice: 10,
  });
  cleanup.push(() => {
    storage.executor.close();
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return Object.assign(storage.series, { sqlite: handle.sqlite });
}

const key = (param: string, datatype: Datatype = 'number') => ({
  sensor: 'env',
  configtype: 'data',
  param,
  subparam: '',
  datatype,
});
/** the keys resolved twice: created, then found (what the registry then remembers for the device) */
function known(series: ReturnType<typeof registry>, deviceId: number, keys: ReturnType<typeof key>[]) {
  ids(series.resolveAll(1, deviceId, keys));
  return series.resolveAll(1, deviceId, keys);
}
/** the answer given at once (the write lock free), as ids (or the refusal) */
const ids = (r: readonly unknown[] | Promise<unknown>) => {
  if (!Array.isArray(r)) throw new Error('answered later: the write lock was held');
  return r.map((s) => (typeof s === 'object' && s !== null ? (s as { id: number }).id : s));
};

describe('the series registry', () => {
  it('resolves the same keys to the same series message after message, and new keys to their own', () => {
    const series = registry();
    const first = ids(known(series, 7, [key('temperature'), key('humidity')]));
    expect(first).toHaveLength(2);
    expect(ids(series.resolveAll(1, 7, [key('temperature'), key('humidity')]))).toEqual(first);
    // another order, another key, another device: never the remembered answer
    expect(ids(series.resolveAll(1, 7, [key('humidity'), key('temperature')]))).toEqual([first[1], first[0]]);
    const three = ids(series.resolveAll(1, 7, [key('temperature'), key('humidity'), key('pressure')]));
    expect(three.slice(0, 2)).toEqual(first);
    expect(new Set([...three, ...ids(series.resolveAll(1, 8, [key('temperature')]))]).size).toBe(4);
  });

  it('refuses a point whose datatype differs from its series, right after the same key resolved', () => {
    const series = registry();
    known(series, 7, [key('temperature')]);
    expect(series.resolveAll(1, 7, [key('temperature', 'string')])).toEqual(['datatype_mismatch']);
  });

  it('is not fooled by a caller reusing its keys for the next message', () => {
    const series = registry();
    known(series, 7, [key('humidity')]);
    const keys = [key('temperature')];
    const [t] = ids(known(series, 7, keys));
    keys[0] = key('humidity');
    const [h] = ids(series.resolveAll(1, 7, keys));
    expect(h).not.toBe(t);
  });

  it('reads a forgotten device’s series from the table again, under the same ids', () => {
    const series = registry();
    const before = ids(known(series, 7, [key('temperature'), key('humidity')]));
    series.forgetDevice(7);
    expect(ids(series.resolveAll(1, 7, [key('temperature'), key('humidity')]))).toEqual(before);
  });

  it('creates a removed device’s series anew once it is forgotten (nothing remembered of the old ones)', () => {
    const series = registry();
    const before = ids(known(series, 7, [key('temperature')]));
    known(series, 8, [key('temperature')]);
    expect(series.size).toBe(2);
    series.sqlite.prepare('DELETE FROM telemetry_series WHERE device_id = 7').run();
    series.forgetDevice(7);
    expect(series.size).toBe(1); // device 8's stays
    expect(series.byId(before[0] as number)).toBeUndefined();
    const after = ids(known(series, 7, [key('temperature')]));
    expect(after[0]).not.toBe(before[0]);
    expect(series.byId(after[0] as number)?.deviceId).toBe(7);
  });

  describe('while the telemetry writer thread holds the write lock', () => {
    it('answers later, the event loop going on; the creations waiting meanwhile are made in one transaction', async () => {
      const series = registry();
      const other = new Database(series.sqlite.name);
      cleanup.push(() => other.close());
      known(series, 7, [key('temperature')]);
      other.exec('begin immediate');
      // a known series still answers at once; a new one waits, and so does the next creation (behind it)
      expect(ids(series.resolveAll(1, 7, [key('temperature')]))).toHaveLength(1);
      const a = series.resolveAll(1, 7, [key('temperature'), key('humidity')]);
      const b = series.resolveAll(1, 8, [key('pressure')]);
      expect(a).toBeInstanceOf(Promise);
      expect(b).toBeInstanceOf(Promise);
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      await new Promise((r) => setTimeout(r, 100));
      const commits = series.sqlite.prepare('select count(*) from telemetry_series').pluck();
      expect(commits.get()).toBe(1);
      other.exec('commit');
      const [ra, rb] = await Promise.all([a, b]);
      clearInterval(ticker);
      expect(ticks).toBeGreaterThan(5);
      expect(ids(ra)).toEqual([...ids(series.resolveAll(1, 7, [key('temperature')])), expect.any(Number)]);
      expect(ids(rb)).toEqual([expect.any(Number)]);
      expect(commits.get()).toBe(3);
      // held now: answered at once
      expect(ids(series.resolveAll(1, 8, [key('pressure')]))).toEqual(ids(rb));
    });

    it('fails the waiting creations together when their transaction fails, and reads the table again next time', async () => {
      const series = registry();
      const other = new Database(series.sqlite.name);
      cleanup.push(() => other.close());
      other.exec('begin immediate');
      const a = series.resolveAll(1, 7, [key('temperature')]);
      // the table taken away while it waits: the insert fails
      other.exec('commit');
      series.sqlite.exec('ALTER TABLE telemetry_series RENAME TO telemetry_series_away');
      await expect(a).rejects.toThrow();
      series.sqlite.exec('ALTER TABLE telemetry_series_away RENAME TO telemetry_series');
      expect(ids(series.resolveAll(1, 7, [key('temperature')]))).toEqual([expect.any(Number)]);
    });
  });
});
