// Test support: one "gateway" reading the deployment id of the SQLite database in DATA_DIR through the store, in a
// process of its own (a race between gateways is between processes: one process's connections would wait on each
// other's write lock while holding the event loop). Prints the id.
import * as schema from '../../../schema.js';
import { deploymentIdOf } from '../deployment.js';
import { findUp, openDb } from '../sqlite.js';
import { sqliteStore } from '../store.js';

const handle = openDb({ dataDir: process.argv[2]!, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
try {
  process.stdout.write(await deploymentIdOf(sqliteStore(handle.sqlite, schema)));
} finally {
  handle.close();
}
