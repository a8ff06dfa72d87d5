import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { findUp } from '../../../platform/db/sqlite.js';
import { createBatchStore, orderBySeries } from './write-batch.js';
import type { TelemetryMessage } from '../message.js';
import { toBatch } from './batch.js';

const msg = (points: [number, number][], more: Partial<TelemetryMessage> = {}): TelemetryMessage => ({
  appId: 1,
  deviceId: 1,
  qos: 0,
  receivedAt: 0,
  states: [],
  points: points.map(([seriesId, ts]) => ({ seriesId, ts, num: ts, text: null })),
  ...more,
});

function ordered(messages: TelemetryMessage[]) {
  const { batch, points } = toBatch(1, messages, null);
  return Array.from(orderBySeries(batch.series, batch.ts), (i) => [points[i]!.seriesId, points[i]!.ts]);
}

describe('orderBySeries', () => {
  it('orders a batch by series then time, whatever the arrival order', () => {
    expect(
      ordered([
        msg([
          [30, 5],
          [2, 9],
          [10, 1],
        ]),
        msg([
          [2, 3],
          [30, 1],
          [10, 2],
        ]),
        msg([[2, 10]]),
      ]),
    ).toEqual([
      [2, 3],
      [2, 9],
      [2, 10],
      [10, 1],
      [10, 2],
      [30, 1],
      [30, 5],
    ]);
  });
  it('keeps every point and handles an empty batch', () => {
    expect(ordered([])).toEqual([]);
    const out = ordered(Array.from({ length: 1000 }, (_, i) => msg([[i % 37, 1000 - i]])));
    expect(out).toHaveLength(1000);
    for (let i = 1; i < out.length; i++) {
      const [sa, ta] = out[i - 1]!;
      const [sb, tb] = out[i]!;
      expect(sa! < sb! || (sa === sb && ta! <= tb!)).toBe(true);
    }
  });
});

describe('createBatchStore', () => {
  function store() {
    const sqlite = new Database(':memory:');
    migrate(drizzle(sqlite), { migrationsFolder: findUp('drizzle', import.meta.url) });
    return { sqlite, store: createBatchStore(sqlite) };
  }

  it('stores numbers, nulls and texts as sent, reports duplicates by batch index, applies states', () => {
    const { sqlite, store: s } = store();
    const text = { seriesId: 7, ts: 5, num: null, text: '{"a":1}' };
    const first = toBatch(
      1,
      [
        msg(
          [
            [3, 2],
            [3, 1],
          ],
          {
            points: [{ seriesId: 3, ts: 2, num: 2.5, text: null }, { seriesId: 3, ts: 1, num: null, text: null }, text],
            states: [{ key: 'POWER', value: '"ON"', ts: 1 }],
          },
        ),
      ],
      null,
    );
    const r1 = s.write(first.batch);
    expect(Array.from(r1.duplicates)).toEqual([]);
    expect(r1.appliedStates).toEqual([{ msg: 0, changes: [{ key: 'POWER', value: '"ON"', ts: 1 }] }]);
    expect(
      sqlite.prepare('SELECT series_id, ts, num, text FROM telemetry_points ORDER BY series_id, ts').raw().all(),
    ).toEqual([
      [3, 1, null, null],
      [3, 2, 2.5, null],
      [7, 5, null, '{"a":1}'],
    ]);
    // the same (series, ts) again: not stored twice, reported by its index in the batch
    const again = toBatch(
      2,
      [
        msg([
          [9, 1],
          [3, 2],
        ]),
      ],
      null,
    );
    expect(Array.from(s.write(again.batch).duplicates)).toEqual([1]);
    expect(sqlite.prepare('SELECT value FROM device_states WHERE device_id = 1 AND key = ?').pluck().get('POWER')).toBe(
      '"ON"',
    );
  });

  it('inserts a compaction chunk a hundred rows per statement and the rest one by one, as sent', () => {
    const { sqlite, store: s } = store();
    // 250 points: two full statements and 50 single rows; a text in each part; a (series, ts) twice in the first
    // hundred (the first kept) and one already stored (kept as stored)
    const n = 250;
    const chunk = {
      series: new Float64Array(n),
      ts: new Float64Array(n),
      num: new Float64Array(n),
      hasNum: new Uint8Array(n),
      textAt: Int32Array.from([5, 230]),
      texts: ['lima', 'dua ratus tiga puluh'],
    };
    for (let i = 0; i < n; i++) {
      chunk.series[i] = 1 + Math.floor(i / 10);
      chunk.ts[i] = i;
      chunk.num[i] = i * 1.5;
      chunk.hasNum[i] = i % 7 === 0 ? 0 : 1;
    }
    chunk.ts[11] = 10; // (2, 10) again: the first (num 15) stays
    chunk.hasNum[5] = chunk.hasNum[230] = 0;
    sqlite.prepare('INSERT INTO telemetry_points (series_id, ts, num, text) VALUES (25, 240, -1, NULL)').run();
    const batch = toBatch(1, [], null).batch;
    s.write({ ...batch, journal: { part: 0, round: 1 }, compact: chunk });
    const rows = sqlite
      .prepare('SELECT series_id, ts, num, text FROM telemetry_points ORDER BY series_id, ts')
      .raw()
      .all();
    expect(rows).toHaveLength(n - 1);
    const at = (series: number, ts: number) =>
      rows.find((r) => (r as number[])[0] === series && (r as number[])[1] === ts);
    expect(at(1, 0)).toEqual([1, 0, null, null]);
    expect(at(1, 5)).toEqual([1, 5, null, 'lima']);
    expect(at(2, 10)).toEqual([2, 10, 15, null]);
    expect(at(10, 99)).toEqual([10, 99, 148.5, null]);
    expect(at(24, 230)).toEqual([24, 230, null, 'dua ratus tiga puluh']);
    expect(at(25, 240)).toEqual([25, 240, -1, null]);
    expect(at(25, 249)).toEqual([25, 249, 373.5, null]);
  });

  it('merges rollup rows and records the generation in the same transaction', () => {
    const { sqlite, store: s } = store();
    const rows = (count: number, sum: number) => Float64Array.from([4, 60_000, count, sum, 1, 3, 1, 60_001, 3, 60_002]);
    s.write(toBatch(1, [], { writer: 'w1', generation: 1, minute: rows(2, 4), hour: new Float64Array(0) }).batch);
    const r = s.write(
      toBatch(2, [], { writer: 'w1', generation: 2, minute: rows(1, 3), hour: new Float64Array(0) }).batch,
    );
    expect(r.rollupRows).toBe(1);
    expect(sqlite.prepare('SELECT "count", "sum" FROM telemetry_rollup_minute').raw().all()).toEqual([[3, 7]]);
    expect(
      sqlite.prepare("SELECT rollup_generation FROM telemetry_writer_state WHERE writer = 'w1'").pluck().get(),
    ).toBe(2);
  });
});
