// One vitest run covers every workspace: unit tests beside the code, integration tests under server/test. The
// integration suites that touch storage run a second time with every gateway on PostgreSQL (project `postgres`:
// SENTRA_TEST_ENGINE=postgres gives each gateway a fresh database of the run's cluster, server/test/harness.ts).
import { defineConfig } from 'vitest/config';
import { hasPostgres } from './server/src/platform/db/testing/postgres.js';

/** the suites that run on both engines: every call, rule, live push and broker state they check, on PostgreSQL too */
export const POSTGRES_SUITES = [
  'apps',
  'auth',
  'broker-persistence',
  'cards',
  'cards.answers',
  'cards.states',
  'commands',
  'credentials',
  'csv',
  'dashboards',
  'device-data',
  'devices',
  'roles',
  'rules',
  'states',
  'tags',
  'tasks',
  'telemetry.mqtt',
  'users',
  'webservice',
].map((name) => `server/test/${name}.test.ts`);

const POSTGRES_PROJECT = {
  extends: true as const,
  test: { name: 'postgres', include: POSTGRES_SUITES, env: { SENTRA_TEST_ENGINE: 'postgres' } },
};

export default defineConfig({
  test: {
    globalSetup: ['vitest.global-setup.ts'],
    pool: 'forks',
    testTimeout: 20000,
    hookTimeout: 30000,
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: [
            'contracts/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'server/test/**/*.test.ts',
            'server/bench/**/*.test.ts',
            'simulator/src/**/*.test.ts',
            'web/src/**/*.test.{ts,tsx}',
            'loadtest/**/*.test.ts',
            'scripts/**/*.test.mjs',
          ],
          environmentMatchGlobs: [['web/src/**/*.test.tsx', 'jsdom']],
        },
      },
      // without PostgreSQL a developer's run leaves this project out and says so (hasPostgres); CI fails instead
      ...(hasPostgres ? [POSTGRES_PROJECT] : []),
    ],
  },
});
