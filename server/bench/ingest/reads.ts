// Read figures of the ingest benchmark: a points table seeded (sorted, one transaction per series) with up to
// `targetPoints` points — as many as fit in `seedBudgetMs` — then latest-N and one-day range reads through the
// telemetry read service, p50/p95 over random series.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findUp, openDb } from '../../src/platform/db/sqlite.js';
import * as schema from '../../src/schema.js';
import { createTelemetryReads } from '../../src/modules/telemetry/read/reads.js';
import { ensureClusteredLayout } from '../../src/modules/telemetry/store/storage.js';

const POINTS_PER_SERIES = 5000; // one point a minute: ~3.5 days per series, so a one-day range holds 1,440 points
const STEP_MS = 60_000;

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 1000) / 1000;
}

export async function seedAndRead(opts: {
  targetPoints: number;
  seedBudgetMs: number;
}): Promise<Record<string, number>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-reads-'));
  const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  try {
    const { sqlite } = handle;
    ensureClusteredLayout(sqlite);
    const seriesWanted = Math.ceil(opts.targetPoints / POINTS_PER_SERIES);
    const addSeries = sqlite.prepare(
      "INSERT INTO telemetry_series (app_id, device_id, sensor, configtype, param, subparam, datatype, created_at) VALUES (1, ?, 'env', 'data', 'temperature', '', 'number', 0)",
    );
    const addPoint = sqlite.prepare('INSERT INTO telemetry_points (series_id, ts, num) VALUES (?, ?, ?)');
    const end = Date.UTC(2024, 0, 8);
    const start = end - POINTS_PER_SERIES * STEP_MS;
    const seedOne = sqlite.transaction((seriesId: number) => {
      for (let i = 0; i < POINTS_PER_SERIES; i++)
        addPoint.run(seriesId, start + i * STEP_MS, 20 + ((seriesId * 7 + i) % 100) / 10);
    });
    const started = performance.now();
    let series = 0;
    for (; series < seriesWanted && performance.now() - started < opts.seedBudgetMs; series++) {
      const id = Number(addSeries.run(series + 1).lastInsertRowid);
      seedOne(id);
    }
    const seedMs = performance.now() - started;
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const reads = createTelemetryReads(sqlite);
    const pick = (k: number) =>
      reads.findSeries(1, 1 + ((k * 7919) % series), { sensor: 'env', configtype: 'data', param: 'temperature' })!;
    const latest: number[] = [];
    const range: number[] = [];
    let rows = 0;
    for (let k = 0; k < 2000; k++) {
      const s = pick(k);
      let t = performance.now();
      rows += reads.latestN(s, 25).length;
      latest.push(performance.now() - t);
      const from = start + ((k * 13) % 2) * 86_400_000 + 3_600_000;
      t = performance.now();
      rows += reads.range(s, from, from + 86_400_000).length;
      range.push(performance.now() - t);
    }
    return {
      read_seeded_points: series * POINTS_PER_SERIES,
      read_seeded_series: series,
      read_seed_points_per_s: Math.round((series * POINTS_PER_SERIES) / (seedMs / 1000)),
      read_db_mb: Math.round(fs.statSync(path.join(dir, 'sentra.db')).size / 1048576),
      latest25_p50_ms: pct(latest, 50),
      latest25_p95_ms: pct(latest, 95),
      range_1day_points: Math.round(rows / 2000) - 25,
      range_1day_p50_ms: pct(range, 50),
      range_1day_p95_ms: pct(range, 95),
    };
  } finally {
    handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
