// The storage boundary, checked on the source: a domain reaches its tables only through its own store (the
// asynchronous `AppStore`, on SQLite or PostgreSQL), never another domain's tables, and nothing but an engine's own
// implementation talks to better-sqlite3. The lists below are what is not there yet: they only shrink. A file that
// breaks a rule and is not listed fails the test; a listed file that keeps the rule now fails it too (take it off).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));

/** the SQLite engine's own implementations (an engine-specific store behind its interface): allowed for good */
const SQLITE_ENGINE = new Set([
  'platform/db/sqlite.ts',
  'platform/db/store.ts',
  'platform/db/sqlite-lock.ts',
  'platform/db/deployment.ts',
  'modules/telemetry/ingest/storage-start.ts',
  'modules/telemetry/read/point-reads.ts',
  'modules/telemetry/read/rollup-rows.ts',
  'modules/telemetry/read/reads.ts',
  'modules/telemetry/read/series-keys.ts',
  'modules/telemetry/store/checkpoint.worker.ts',
  'modules/telemetry/store/rollup-repair.ts',
  'modules/telemetry/store/series.ts',
  'modules/telemetry/store/sqlite-store.ts',
  'modules/telemetry/store/storage.ts',
  'modules/telemetry/store/write-batch.ts',
  'modules/telemetry/store/writer-thread.ts',
  'modules/telemetry/store/writer.worker.ts',
  'modules/states/states.store.ts',
  'platform/mqtt/persistence/sqlite-persistence.ts',
]);

/** still on the synchronous SQLite database (`Db`, better-sqlite3): to move behind their domain's store */
const NOT_YET_ASYNC = new Set<string>([]);

/** still reading or writing another domain's tables: to ask that domain instead */
const NOT_YET_OWN_TABLES = new Set<string>([]);

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(SRC, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'testing' ? [] : sources(rel);
    return rel.endsWith('.ts') && !rel.endsWith('.test.ts') ? [rel] : [];
  });
}

const files = [...sources('modules'), ...sources('platform')].map((rel) => ({
  rel,
  text: fs.readFileSync(path.join(SRC, rel), 'utf8'),
}));

const domainOf = (rel: string) => /^modules\/([^/]+)\//.exec(rel)?.[1];

/** whether the file works on the synchronous SQLite database (better-sqlite3 itself, or drizzle's `Db` over it) */
const usesSyncEngine = (text: string) =>
  // drizzle's own prepared queries on the store (`store.db….prepare()`) are the store's, not the engine's
  /from 'better-sqlite3'|\bsqlite\w*\.prepare\(/.test(text) ||
  /import (type )?\{[^}]*\bDb\b[^}]*\} from '(\.\.\/)+db\.js'/.test(text);

/** the other domains whose tables the file imports */
function foreignTables(rel: string, text: string): string[] {
  const own = domainOf(rel);
  if (!own || rel.endsWith('.table.ts')) return [];
  const found = new Set<string>();
  for (const m of text.matchAll(/^import (?!type )[^;]*? from '([^']+\.table\.js)'/gms)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1]!));
    const other = domainOf(target);
    if (other && other !== own) found.add(other);
  }
  return [...found];
}

describe('the storage boundary', () => {
  it('keeps the synchronous SQLite database to the engines and the listed files not yet moved', () => {
    const offending = files.filter((f) => usesSyncEngine(f.text)).map((f) => f.rel);
    const unlisted = offending.filter((f) => !SQLITE_ENGINE.has(f) && !NOT_YET_ASYNC.has(f));
    expect(unlisted, 'use the domain store (AppStore), not the synchronous database').toEqual([]);
    const moved = [...NOT_YET_ASYNC].filter((f) => !offending.includes(f));
    expect(moved, 'moved behind the boundary: take them off NOT_YET_ASYNC').toEqual([]);
  });

  it('keeps every domain to its own tables but for the listed files not yet moved', () => {
    const offending = files.filter((f) => foreignTables(f.rel, f.text).length > 0).map((f) => f.rel);
    const unlisted = offending.filter((f) => !NOT_YET_OWN_TABLES.has(f));
    expect(unlisted, 'ask the owning domain, do not read its tables').toEqual([]);
    const moved = [...NOT_YET_OWN_TABLES].filter((f) => !offending.includes(f));
    expect(moved, 'now on their own tables: take them off NOT_YET_OWN_TABLES').toEqual([]);
  });
});
