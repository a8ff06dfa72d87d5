// The null-id triggers of the PostgreSQL engine. Queries run in the SQLite dialect on both engines (store.ts), and
// drizzle's SQLite dialect renders an insert without `id` as `values (null, ...)`: SQLite gives a null INTEGER PRIMARY
// KEY the next rowid, PostgreSQL would refuse the null (a column default applies only to an omitted column). So every
// table with such an id gets a BEFORE INSERT trigger that takes the id from the bigserial's sequence.
//
// `npm run db:generate:pg -w server` runs this after drizzle-kit: when a derived table has no trigger in the
// migrations yet, it makes a custom migration (drizzle-kit generate --custom) holding the missing ones.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nullIdTables } from './pg-schema.js';

export const NULL_ID_FUNCTION = 'sentra_null_id';

export const nullIdTriggerName = (table: string) => `${table}_null_id`;

/**
 * The function, replaced in each such migration so its latest text is the one in force. An explicit id moves the
 * sequence past it, as SQLite's rowid does (fixtures, rows copied from SQLite): a later null id never collides with it.
 */
const functionSql = `CREATE OR REPLACE FUNCTION "${NULL_ID_FUNCTION}"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seq regclass := pg_get_serial_sequence(format('%I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME), 'id');
BEGIN
  IF NEW.id IS NULL THEN
    NEW.id := nextval(seq);
  ELSIF NEW.id > coalesce(pg_sequence_last_value(seq), 0) THEN
    PERFORM setval(seq, NEW.id);
  END IF;
  RETURN NEW;
END
$$;`;

/** the migration that gives `tables` their trigger (and creates or replaces the function) */
export function nullIdMigrationSql(tables: string[]): string {
  const header =
    '-- Null ids: drizzle renders an insert without id as `values (null, ...)` (SQLite dialect); these tables take\n' +
    '-- it from their sequence. Written by `npm run db:generate:pg -w server` (src/platform/db/pg-null-id.ts).\n';
  const triggers = tables.map(
    (t) =>
      `CREATE TRIGGER "${nullIdTriggerName(t)}" BEFORE INSERT ON "${t}" FOR EACH ROW EXECUTE FUNCTION "${NULL_ID_FUNCTION}"();`,
  );
  return header + [functionSql, ...triggers].join('\n--> statement-breakpoint\n') + '\n';
}

/** the tables whose trigger some migration of `folder` creates */
export function tablesWithTrigger(folder: string): Set<string> {
  const found = new Set<string>();
  const create = /CREATE TRIGGER "([^"]+)_null_id"/g;
  for (const file of fs.readdirSync(folder).filter((f) => f.endsWith('.sql'))) {
    for (const m of fs.readFileSync(path.join(folder, file), 'utf8').matchAll(create)) found.add(m[1]!);
  }
  return found;
}

/**
 * Makes the custom migration for the tables of `schema` that have no trigger in `folder` yet; its path, or undefined
 * when none was missing. `generateCustom` runs `drizzle-kit generate --custom` (it writes the empty file, the journal
 * entry and the snapshot).
 */
export function writeNullIdMigration(
  schema: Record<string, unknown>,
  folder: string,
  generateCustom: () => void,
): string | undefined {
  const have = tablesWithTrigger(folder);
  const missing = nullIdTables(schema).filter((t) => !have.has(t));
  if (missing.length === 0) return undefined;
  generateCustom();
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const file = path.join(folder, `${journal.entries.at(-1)!.tag}.sql`);
  const text = fs.readFileSync(file, 'utf8');
  // drizzle-kit's placeholder only: never overwrite a migration that holds SQL
  if (text.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('--'))) {
    throw new Error(`${file} is not the empty custom migration drizzle-kit was asked for`);
  }
  fs.writeFileSync(file, nullIdMigrationSql(missing));
  return file;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  const schema = (await import('../../schema.js')) as Record<string, unknown>;
  const file = writeNullIdMigration(schema, path.join(server, 'drizzle-pg'), () => {
    const kit = ['drizzle-kit', 'generate', '--custom', '--name', 'null-id', '--config', 'drizzle-pg.config.ts'];
    const run = spawnSync('npx', kit, { cwd: server, stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`drizzle-kit generate --custom exited ${run.status}`);
  });
  console.log(file ? `null-id triggers written to ${path.relative(server, file)}` : 'null-id triggers: none missing');
}
