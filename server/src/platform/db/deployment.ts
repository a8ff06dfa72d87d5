// The deployment's id, read from its database (made there the first time): every gateway that opens the same database
// gets the same id, and a gateway with another database another one.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';

/** the id of the deployment this database belongs to (16 hex characters), made on first use */
export function deploymentId(sqlite: Database.Database, now = Date.now): string {
  const read = () => sqlite.prepare('SELECT id FROM deployment LIMIT 1').pluck().get() as string | undefined;
  const found = read();
  if (found !== undefined) return found;
  // two gateways opening a new shared database at once: the first insert wins, both read it back
  sqlite
    .transaction(() => {
      if (read() === undefined)
        sqlite
          .prepare('INSERT INTO deployment (id, created_at) VALUES (?, ?)')
          .run(randomBytes(8).toString('hex'), now());
    })
    .immediate();
  return read()!;
}
