// The console's screens with the gateway on PostgreSQL: a cluster of its own (Debian's package, a free loopback port),
// one database, and the specs of the screens that read and write most through storage run against it. The whole
// Playwright suite passes on PostgreSQL too (run it with `npm run e2e:postgres -- --all`); `npm test` runs this part, to
// keep CI within its time. Without PostgreSQL a developer's run says it skipped; CI fails (required.ts).
import { spawnSync } from 'node:child_process';
import { hasPostgres, startPostgres } from '../../server/src/platform/db/testing/postgres.js';

/** the screens whose every call reads or writes storage: devices, dashboards and cards, rules and tasks */
export const POSTGRES_SPECS = [
  'devices.spec.ts',
  'device-data.spec.ts',
  'dashboards.spec.ts',
  'cards.spec.ts',
  'rules.spec.ts',
  'tasks.spec.ts',
  'task-console.spec.ts',
];

if (hasPostgres) {
  const all = process.argv.includes('--all');
  const rest = process.argv.slice(2).filter((a) => a !== '--all');
  const cluster = await startPostgres();
  try {
    const url = await cluster.createDatabase('sentra_e2e');
    const run = spawnSync(
      'npx',
      ['playwright', 'test', '-c', 'web/e2e/playwright.config.ts', ...(all ? [] : POSTGRES_SPECS), ...rest],
      { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } },
    );
    process.exitCode = run.status ?? 1;
  } finally {
    await cluster.destroy();
  }
}
