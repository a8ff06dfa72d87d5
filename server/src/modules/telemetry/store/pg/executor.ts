// The batch executor on PostgreSQL: one transaction per batch on one pooled connection. Points go straight into the
// partitioned table with one statement (no journal: every gateway's reads see the table, as with BUS=nats on SQLite),
// `on conflict do nothing` on (series_id, ts), so a replayed batch stores nothing twice and its points come back as
// duplicates; the rollup snapshot is one additive upsert per level, then the writer's generation and the device states.
// A batch with points only is that one statement (atomic by itself: no begin/commit round trips). Any failure rolls
// the whole batch back and answers the error; the writer retries it, pausing while the error is the storage's (a lost
// connection, PostgreSQL shutting down or refusing connections: platform/db/storage-fault.ts).
import type pg from 'pg';
import { orderBySeries, emptyWriteResult, type WriteBatch, type WriteResult } from '../write-batch.js';
import { mergeBucket, ROLLUP_ROW, ROLLUP_TABLE, type RollupBucket, type RollupLevel } from '../rollups.js';
import type { BatchExecutor, WriteDone } from '../writer-thread.js';
import { column, nullableNumbers, numbers, texts } from './arrays.js';
import { applyBatchStates } from './states.js';
import { inTransaction } from './transaction.js';

export interface PgExecutorOptions {
  /** the most state keys a device holds (MAX_STATE_KEYS_PER_DEVICE) */
  maxStateKeys?: number;
}

const INSERT_POINTS = `insert into telemetry_points (series_id, ts, num, text)
  select * from unnest($1::bigint[], $2::bigint[], $3::float8[], $4::text[])
  on conflict do nothing returning series_id, ts`;

// the merge rule of rollups.ts's mergeBucket (and SQLite's mergeSql): count and sum add, min and max keep the extreme,
// first and last go by their timestamps (a tie keeps the stored first and takes the incoming last)
const mergeSql = (table: string) => `insert into ${table} as r
  (series_id, bucket_ts, "count", "sum", "min", "max", "first", first_ts, "last", last_ts)
  select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::float8[], $5::float8[], $6::float8[],
    $7::float8[], $8::bigint[], $9::float8[], $10::bigint[])
  on conflict (series_id, bucket_ts) do update set
    "count" = r."count" + excluded."count",
    "sum" = r."sum" + excluded."sum",
    "min" = least(r."min", excluded."min"),
    "max" = greatest(r."max", excluded."max"),
    "first" = case when excluded.first_ts < r.first_ts then excluded."first" else r."first" end,
    first_ts = least(r.first_ts, excluded.first_ts),
    "last" = case when excluded.last_ts >= r.last_ts then excluded."last" else r."last" end,
    last_ts = greatest(r.last_ts, excluded.last_ts)`;

const SET_GENERATION = `insert into telemetry_writer_state (writer, rollup_generation, updated_at) values ($1, $2, $3)
  on conflict (writer) do update set rollup_generation = excluded.rollup_generation, updated_at = excluded.updated_at`;

/**
 * Rows of one (series, bucket) once: an upsert cannot touch a row twice in one statement. A snapshot holds each bucket
 * once (rollups.ts folds them), so this copies nothing unless it does not.
 */
function uniqueRows(rows: Float64Array): Float64Array {
  const seen = new Map<string, RollupBucket>();
  const out: RollupBucket[] = [];
  const ids: number[] = [];
  let twice = false;
  for (let o = 0; o < rows.length; o += ROLLUP_ROW) {
    const b = bucketAt(rows, o);
    const key = `${rows[o]}:${b.bucketTs}`;
    const have = seen.get(key);
    if (have) (mergeBucket(have, b), (twice = true));
    else (seen.set(key, b), out.push(b), ids.push(rows[o]!));
  }
  if (!twice) return rows;
  const merged = new Float64Array(out.length * ROLLUP_ROW);
  out.forEach((b, r) =>
    merged.set(
      [ids[r]!, b.bucketTs, b.count, b.sum, b.min, b.max, b.first, b.firstTs, b.last, b.lastTs],
      r * ROLLUP_ROW,
    ),
  );
  return merged;
}

const bucketAt = (a: Float64Array, o: number): RollupBucket => ({
  bucketTs: a[o + 1]!,
  count: a[o + 2]!,
  sum: a[o + 3]!,
  min: a[o + 4]!,
  max: a[o + 5]!,
  first: a[o + 6]!,
  firstTs: a[o + 7]!,
  last: a[o + 8]!,
  lastTs: a[o + 9]!,
});

async function mergeRollups(client: pg.PoolClient, level: RollupLevel, snapshot: Float64Array): Promise<number> {
  if (snapshot.length === 0) return 0;
  const rows = uniqueRows(snapshot);
  await client.query({
    name: `tele_rollup_${level}`,
    text: mergeSql(ROLLUP_TABLE[level]),
    values: Array.from({ length: ROLLUP_ROW }, (_, c) => column(rows, ROLLUP_ROW, c)),
  });
  return rows.length / ROLLUP_ROW;
}

/** inserts the batch's points in (series, ts) order; returns the indices of those already stored (or twice in it) */
async function insertPoints(client: pg.PoolClient | pg.Pool, b: WriteBatch): Promise<Int32Array> {
  const n = b.series.length;
  if (n === 0) return new Int32Array(0);
  const order = orderBySeries(b.series, b.ts);
  const text = new Array<string | null>(n).fill(null);
  for (let k = 0; k < b.textAt.length; k++) text[b.textAt[k]!] = b.texts[k]!;
  const { rows } = await client.query<[number, number]>({
    name: 'tele_points',
    text: INSERT_POINTS,
    values: [
      numbers(b.series, order),
      numbers(b.ts, order),
      nullableNumbers(b.num, b.hasNum, order),
      texts(text, order),
    ],
    rowMode: 'array',
  });
  if (rows.length === n) return new Int32Array(0);
  // what came back was stored; of a (series, ts) twice in the batch, the first in order (as SQLite keeps it)
  const stored = new Map<number, Set<number>>();
  for (const [s, t] of rows) {
    let ts = stored.get(s);
    if (!ts) stored.set(s, (ts = new Set()));
    ts.add(t);
  }
  const dup: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const ts = stored.get(b.series[i]!);
    if (ts?.delete(b.ts[i]!)) continue;
    dup.push(i);
  }
  return Int32Array.from(dup);
}

export function pgExecutor(pool: pg.Pool, opts: PgExecutorOptions = {}): BatchExecutor {
  let inFlight = 0;
  let idle: (() => void) | null = null;

  async function write(b: WriteBatch): Promise<WriteResult> {
    if (b.journal || b.compact || b.clearJournal >= 0)
      throw new Error('telemetry on PostgreSQL has no point journal: batches go straight into the table');
    const started = performance.now();
    const out = emptyWriteResult(b.id, performance.timeOrigin + started);
    const finish = () => {
      out.ms = performance.now() - started;
      out.endedAt = performance.timeOrigin + performance.now();
      return out;
    };
    if (!b.rollups && b.states.length === 0) {
      out.duplicates = await insertPoints(pool, b);
      return finish();
    }
    await inTransaction(pool, async (client) => {
      // deltas of points committed earlier, before this batch's points (those fold in only after this commit)
      if (b.rollups) {
        out.rollupRows =
          (await mergeRollups(client, 'minute', b.rollups.minute)) +
          (await mergeRollups(client, 'hour', b.rollups.hour));
        await client.query({
          name: 'tele_generation',
          text: SET_GENERATION,
          values: [b.rollups.writer, b.rollups.generation, Date.now()],
        });
      }
      out.duplicates = await insertPoints(client, b);
      await applyBatchStates(client, b.states, out, opts.maxStateKeys);
    });
    return finish();
  }

  return {
    threaded: false,
    submit(batch: WriteBatch, done: WriteDone) {
      inFlight++;
      write(batch).then(
        (r) => settle(() => done(null, r)),
        (err: unknown) => settle(() => done(err instanceof Error ? err : new Error(String(err)))),
      );
    },
    async close() {
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
    },
  };

  function settle(answer: () => void) {
    inFlight--;
    try {
      answer();
    } finally {
      if (inFlight === 0 && idle) (idle(), (idle = null));
    }
  }
}
