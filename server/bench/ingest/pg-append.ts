// PostgreSQL append rate: 600-point batches for 15,000 series (one point per series per round, 250 ms apart) written
// one after another, as fast as the executor answers, on a cluster of its own with durable commits (fsync on,
// synchronous_commit on). One JSON line: points/s, ms per batch (mean, p50, p99, max), the gateway's CPU per point.
//
//   node --import tsx server/bench/ingest/pg-append.ts [--seconds 30] [--batch 600] [--series 15000]
//        [--via unnest|copy] [--rollups] [--states] [--synchronous-commit on|off]
//
// `--via copy` writes the points the other way measured for the decision (docs/decisions/telemetry-postgres.md): COPY
// into a temporary table, then insert ... select ... on conflict do nothing (begin, copy, insert, commit per batch).
// `--rollups` merges rollup deltas as the writer does (a round every 5 s, 1,000 rows per batch); `--states` adds a
// state report to every tenth batch. Needs PostgreSQL installed (apt-get install postgresql); run as root or as a user
// that can run initdb.
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { openPostgres } from '../../src/platform/db/postgres.js';
import { startPostgres } from '../../src/platform/db/testing/postgres.js';
import { toBatch } from '../../src/modules/telemetry/store/batch.js';
import { ROLLUP_CHUNK_ROWS } from '../../src/modules/telemetry/store/dispatch.js';
import { openPgTelemetryStore } from '../../src/modules/telemetry/store/pg/store.js';
import { createDerivedTables } from '../../src/modules/telemetry/store/pg/testing/tables.js';
import { createRollupKeeper } from '../../src/modules/telemetry/store/rollups.js';
import { DAY_MS } from '../../src/modules/telemetry/store/telemetry-store.js';
import type { WriteBatch, WriteResult } from '../../src/modules/telemetry/store/write-batch.js';
import type { TelemetryMessage, TelemetryPoint } from '../../src/modules/telemetry/message.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    batch: { type: 'string', default: '600' },
    series: { type: 'string', default: '15000' },
    via: { type: 'string', default: 'unnest' },
    rollups: { type: 'boolean', default: false },
    states: { type: 'boolean', default: false },
    'synchronous-commit': { type: 'string', default: 'on' },
  },
});
const seconds = Number(args.seconds);
const batchPoints = Number(args.batch);
const seriesCount = Number(args.series);
const via = args.via === 'copy' ? 'copy' : 'unnest';

/** the COPY way: a temporary table per connection, emptied at each commit */
class CopyIn {
  callback?: (err: Error | null) => void;
  private err: Error | null = null;
  constructor(
    readonly text: string,
    private readonly data: Buffer,
  ) {}
  submit(connection: { query(text: string): void }) {
    connection.query(this.text);
  }
  handleCopyInResponse(connection: { sendCopyFromChunk(b: Buffer): void; endCopyFrom(): void }) {
    connection.sendCopyFromChunk(this.data);
    connection.endCopyFrom();
  }
  handleCommandComplete() {}
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleError(err: Error) {
    this.err = err;
  }
  handleReadyForQuery() {
    this.callback?.(this.err);
  }
}

const copyText = (s: string) =>
  s.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);

async function copyAppend(client: pg.PoolClient, b: WriteBatch): Promise<number> {
  const texts = new Map<number, string>();
  for (let k = 0; k < b.textAt.length; k++) texts.set(b.textAt[k]!, b.texts[k]!);
  const lines: string[] = new Array(b.series.length);
  for (let i = 0; i < b.series.length; i++) {
    const t = texts.get(i);
    lines[i] =
      `${b.series[i]}\t${b.ts[i]}\t${b.hasNum[i] ? b.num[i] : '\\N'}\t${t === undefined ? '\\N' : copyText(t)}`;
  }
  await client.query('begin');
  await new Promise<void>((resolve, reject) =>
    client.query(
      new CopyIn('copy points_in from stdin', Buffer.from(lines.join('\n') + '\n')) as never,
      ((err: Error | null) => (err ? reject(err) : resolve())) as never,
    ),
  );
  const { rowCount } = await client.query({
    name: 'bench_copy_insert',
    text: 'insert into telemetry_points select * from points_in order by series_id, ts on conflict do nothing returning series_id, ts',
    rowMode: 'array',
  });
  await client.query('commit');
  return b.series.length - (rowCount ?? 0);
}

const cluster = await startPostgres({ synchronous_commit: args['synchronous-commit'] });
try {
  const url = await cluster.createDatabase('bench');
  const { pool, close } = await openPostgres({ url, max: 4 });
  await createDerivedTables(pool);
  const store = await openPgTelemetryStore(pool);
  const copyClient = via === 'copy' ? await pool.connect() : null;
  if (copyClient)
    await copyClient.query(
      'create temp table points_in (series_id bigint, ts bigint, num float8, text text) on commit delete rows',
    );
  const keeper = createRollupKeeper('bench');
  const append = (b: WriteBatch) =>
    new Promise<WriteResult>((resolve, reject) =>
      store.executor.submit(b, (err, r) => (err ? reject(err) : resolve(r!))),
    );

  const now = Date.now();
  const base = now - (now % DAY_MS) + 3_600_000; // inside today's partition
  const perRound = Math.ceil(seriesCount / batchPoints);
  const times: number[] = [];
  let points = 0;
  let duplicates = 0;
  let rollupRows = 0;
  let lastRound = 0;
  let roundLeft = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  for (let k = 0; performance.now() < until; k++) {
    const round = Math.floor(k / perRound);
    const first = (k % perRound) * batchPoints;
    const pts: TelemetryPoint[] = [];
    for (let s = first; s < Math.min(first + batchPoints, seriesCount); s++)
      pts.push({ seriesId: s + 1, ts: base + round * 250, num: Math.sin(s + round), text: null });
    const messages: TelemetryMessage[] = [{ appId: 1, deviceId: 1, qos: 1, receivedAt: 0, points: pts, states: [] }];
    if (args.states && k % 10 === 0)
      messages.push({
        appId: 1,
        deviceId: 1 + (k % 500),
        qos: 1,
        receivedAt: 0,
        points: [],
        states: [{ key: 'POWER', value: round % 2 ? '"ON"' : '"OFF"', ts: base + round * 250 }],
      });
    // the writer's schedule: a rollup round every 5 s, a chunk per batch until it is through
    let snapshot = null;
    if (args.rollups) {
      if (roundLeft <= 0 && performance.now() - lastRound >= 5000 && keeper.hasPending)
        ((roundLeft = keeper.pendingSeries), (lastRound = performance.now()));
      if (roundLeft > 0) {
        const before = keeper.pendingSeries;
        snapshot = keeper.snapshot(ROLLUP_CHUNK_ROWS);
        roundLeft -= before - keeper.pendingSeries;
      }
    }
    const { batch } = toBatch(k + 1, messages, snapshot);
    const started = performance.now();
    if (copyClient && !snapshot && batch.states.length === 0) duplicates += await copyAppend(copyClient, batch);
    else {
      const r = await append(batch);
      duplicates += r.duplicates.length;
      rollupRows += r.rollupRows;
    }
    times.push(performance.now() - started);
    if (snapshot) keeper.snapshotStored();
    if (args.rollups) for (const p of pts) keeper.add(p.seriesId, p.ts, p.num!);
    points += pts.length;
  }
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  copyClient?.release();
  const sorted = [...times].sort((a, b) => a - b);
  const pct = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) / 100;
  const stored = (await pool.query<{ n: number }>('select count(*) as n from telemetry_points')).rows[0]!.n;
  console.log(
    JSON.stringify({
      bench: 'pg-append',
      via,
      synchronous_commit: args['synchronous-commit'],
      rollups: args.rollups,
      states: args.states,
      series: seriesCount,
      batch_points: batchPoints,
      seconds: Math.round(elapsed * 10) / 10,
      batches: times.length,
      points,
      stored,
      duplicates,
      rollup_rows: rollupRows,
      points_per_s: Math.round(points / elapsed),
      ms_per_batch: Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 100) / 100,
      p50_ms: pct(0.5),
      p99_ms: pct(0.99),
      max_ms: pct(1),
      gateway_cpu_us_per_point: Math.round(((cpu.user + cpu.system) / points) * 100) / 100,
    }),
  );
  await store.executor.close();
  await close();
} finally {
  await cluster.destroy();
}
