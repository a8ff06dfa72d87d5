// One write of the telemetry writer, as plain data that crosses a worker boundary cheaply (typed arrays, transferred
// not copied), and the transaction that stores it: rollup deltas merged, points inserted in (series, ts) order, states
// applied. The same function runs on the writer thread and, for in-memory databases, on the main thread.
import type Database from 'better-sqlite3';
import { createStatesStore, type StateChange } from '../states/states.store.js';
import { ROLLUP_ROW, ROLLUP_TABLE, type RollupLevel, type RollupSnapshot } from './rollups.js';

export interface WriteBatch {
  /** increasing per writer */
  id: number;
  /** point i is (series[i], ts[i], hasNum[i] ? num[i] : null, text of i or null) */
  series: Float64Array;
  ts: Float64Array;
  num: Float64Array;
  hasNum: Uint8Array;
  /** the few points with a text value: their index and text */
  textAt: Int32Array;
  texts: string[];
  /** state reports per message (`msg` is the message's index in the batch) */
  states: { msg: number; appId: number; deviceId: number; changes: StateChange[] }[];
  /** rollup deltas to merge (flat rows of ROLLUP_ROW numbers) and the generation they make durable */
  rollups: RollupSnapshot | null;
}

export interface WriteResult {
  id: number;
  /** indices of points whose (series, ts) was already stored: not inserted */
  duplicates: Int32Array;
  /** per message index, the state reports that changed something */
  appliedStates: { msg: number; changes: StateChange[] }[];
  rollupRows: number;
  ms: number;
  /** wall clock (epoch ms, fractional) when the store took the batch and when it was done: the thread hop's cost */
  startedAt: number;
  endedAt: number;
}

/**
 * Point indices ordered by (series, ts), so each series' pages of the clustered table are touched once. Points of one
 * series nearly always arrive in time order: bucket by series, sort the series ids (a typed-array sort), and sort a
 * bucket only when it is out of order — far cheaper than a comparator sort of the whole batch.
 */
export function orderBySeries(series: Float64Array, ts: Float64Array): Int32Array {
  const buckets = new Map<number, number[]>();
  for (let i = 0; i < series.length; i++) {
    const b = buckets.get(series[i]!);
    if (b) b.push(i);
    else buckets.set(series[i]!, [i]);
  }
  const ids = Float64Array.from(buckets.keys()).sort();
  const out = new Int32Array(series.length);
  let k = 0;
  for (const id of ids) {
    const b = buckets.get(id)!;
    for (let j = 1; j < b.length; j++) {
      if (ts[b[j]!]! < ts[b[j - 1]!]!) {
        b.sort((x, y) => ts[x]! - ts[y]!);
        break;
      }
    }
    for (const i of b) out[k++] = i;
  }
  return out;
}

const mergeSql = (table: string) => `INSERT INTO ${table} (series_id, bucket_ts, "count", "sum", "min", "max", "first", first_ts, "last", last_ts)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (series_id, bucket_ts) DO UPDATE SET
    "count" = "count" + excluded."count",
    "sum" = "sum" + excluded."sum",
    "min" = min("min", excluded."min"),
    "max" = max("max", excluded."max"),
    "first" = CASE WHEN excluded.first_ts < first_ts THEN excluded."first" ELSE "first" END,
    first_ts = min(first_ts, excluded.first_ts),
    "last" = CASE WHEN excluded.last_ts >= last_ts THEN excluded."last" ELSE "last" END,
    last_ts = max(last_ts, excluded.last_ts)`;

/** The statements of one connection; `write` stores a batch in one transaction or throws (nothing stored). */
export function createBatchStore(sqlite: Database.Database) {
  const insertPoint = sqlite.prepare('INSERT INTO telemetry_points (series_id, ts, num, text) VALUES (?, ?, ?, ?) ON CONFLICT (series_id, ts) DO NOTHING');
  const merge: Record<RollupLevel, Database.Statement> = { minute: sqlite.prepare(mergeSql(ROLLUP_TABLE.minute)), hour: sqlite.prepare(mergeSql(ROLLUP_TABLE.hour)) };
  const setGeneration = sqlite.prepare(
    'INSERT INTO telemetry_writer_state (writer, rollup_generation, updated_at) VALUES (?, ?, ?) ON CONFLICT (writer) DO UPDATE SET rollup_generation = excluded.rollup_generation, updated_at = excluded.updated_at',
  );
  const states = createStatesStore(sqlite);

  function mergeRows(level: RollupLevel, rows: Float64Array): number {
    const stmt = merge[level];
    for (let o = 0; o < rows.length; o += ROLLUP_ROW) stmt.run(rows[o], rows[o + 1], rows[o + 2], rows[o + 3], rows[o + 4], rows[o + 5], rows[o + 6], rows[o + 7], rows[o + 8], rows[o + 9]);
    return rows.length / ROLLUP_ROW;
  }

  const run = sqlite.transaction((b: WriteBatch, order: Int32Array, texts: Map<number, string>, out: WriteResult) => {
    // deltas of points committed earlier, before this batch's points (those fold in only after this commit)
    if (b.rollups) {
      out.rollupRows = mergeRows('minute', b.rollups.minute) + mergeRows('hour', b.rollups.hour);
      setGeneration.run(b.rollups.writer, b.rollups.generation, Date.now());
    }
    const dup: number[] = [];
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (insertPoint.run(b.series[i], b.ts[i], b.hasNum[i] ? b.num[i] : null, texts.get(i) ?? null).changes === 0) dup.push(i);
    }
    out.duplicates = Int32Array.from(dup);
    for (const s of b.states) {
      const changes = states.apply(s.appId, s.deviceId, s.changes);
      if (changes.length) out.appliedStates.push({ msg: s.msg, changes });
    }
  });

  return {
    write(b: WriteBatch): WriteResult {
      const started = performance.now();
      const startedAt = performance.timeOrigin + started;
      const order = orderBySeries(b.series, b.ts);
      const texts = new Map<number, string>();
      for (let k = 0; k < b.textAt.length; k++) texts.set(b.textAt[k]!, b.texts[k]!);
      const out: WriteResult = { id: b.id, duplicates: new Int32Array(0), appliedStates: [], rollupRows: 0, ms: 0, startedAt, endedAt: 0 };
      run.immediate(b, order, texts, out);
      out.ms = performance.now() - started;
      out.endedAt = performance.timeOrigin + performance.now();
      return out;
    },
  };
}

export type BatchStore = ReturnType<typeof createBatchStore>;
