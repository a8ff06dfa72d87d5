// Physical layout the hot path relies on. drizzle-kit cannot declare WITHOUT ROWID, so right after the generated
// migration the clustered tables are rebuilt once (empty on a fresh database; copied in key order otherwise).
import type Database from 'better-sqlite3';
import type { Logger } from '../../../platform/log.js';

export const CLUSTERED_TABLES = [
  'telemetry_points',
  'telemetry_rollup_minute',
  'telemetry_rollup_hour',
  'device_state_history',
] as const;

export function ensureClusteredLayout(sqlite: Database.Database, log?: Logger): void {
  for (const table of CLUSTERED_TABLES) {
    const row = sqlite.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as
      { sql: string } | undefined;
    if (!row) throw new Error(`table ${table} is missing: run the migrations first`);
    if (/WITHOUT\s+ROWID\s*$/i.test(row.sql.trim())) continue;
    const rows = (sqlite.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
    if (rows > 0) log?.warn(`rebuilding ${table} (${rows} rows) as a clustered WITHOUT ROWID table`);
    sqlite.transaction(() => {
      sqlite.exec(`ALTER TABLE "${table}" RENAME TO "${table}__rowid"`);
      sqlite.exec(`${row.sql.trim().replace(/;$/, '')} WITHOUT ROWID`);
      sqlite.exec(`INSERT INTO "${table}" SELECT * FROM "${table}__rowid"`);
      sqlite.exec(`DROP TABLE "${table}__rowid"`);
    })();
  }
  // the open end of every series' clustered range is hot: keep those pages in SQLite's cache, not only the OS's
  const cache = sqlite.pragma('cache_size', { simple: true }) as number;
  if (cache > 0 ? cache < 16384 : -cache < 65536) sqlite.pragma('cache_size = -65536');
}
