// One vitest configuration covers every workspace: unit tests beside the code, integration tests under server/test. The
// integration suites that touch storage run a second time with every gateway on PostgreSQL (project `postgres`:
// SENTRA_TEST_ENGINE=postgres gives each gateway a fresh database of the run's cluster, server/test/harness.ts), and
// the broker's suites a second time with the broker threads on aedes as it is (project `plain-aedes`).
// `npm run test:unit` runs the unit tests beside the code (project `unit`) on every core, then the integration suites
// (`integration`, `plain-aedes`, `postgres`) one file at a time: the unit tests mostly import and compute (2 workers
// take them from 450 s to 260 s on 2 cores), the integration suites run real gateways, brokers, NATS and PostgreSQL
// whose timings must not share the cores with another file's gateway, each project's files in one process
// (`--no-isolate`; vitest still keeps projects apart): every suite starts and stops its own gateways and changes no
// global state, and a fresh process per file cost ~3.5 s of start-up and imports each (86 files). vitest 3.2 takes
// isolation for the whole run, not per project: hence the flag on the second run.
import { defineConfig } from 'vitest/config';
import { hasPostgres } from './server/src/platform/db/testing/postgres.js';

/**
 * the suites that run on both engines: every call path with SQL of its own beyond the stores' contract suites
 * (devices, telemetry, cards, rules, tasks, broker state, states, device data, dashboards, commands). The access
 * domains (auth, users, roles, credentials, apps, tags, the web service, CSV) run on SQLite here: their stores'
 * contract suites run on both engines (`forEachEngine`), and `npm run e2e:postgres -- --all` takes their screens
 */
export const POSTGRES_SUITES = [
  'broker-persistence',
  'cards',
  'cards.answers',
  'cards.states',
  'commands',
  'dashboards',
  'device-data',
  'devices',
  'rules',
  'states',
  'tasks',
  'telemetry.mqtt',
].map((name) => `server/test/${name}.test.ts`);

/**
 * the broker's suites that run a second time with the broker threads on aedes as it is (project `plain-aedes`:
 * MQTT_FAST_PATH=off, docs/decisions/broker.md): a client must not tell the two modes apart. A few, for CI's time:
 * sign-in, rights and threads, the thread's order, bounds and QoS 2, sessions and retained messages kept across a
 * restart, telemetry at QoS 0/1/2, raw bytes and the packet size limit, the outbound bound (MQTT 5 is the fast path's)
 */
export const PLAIN_AEDES_SUITES = [
  'broker',
  'broker-thread',
  'broker-persistence',
  'telemetry.mqtt',
  'robustness.mqtt',
  'mqtt-limits',
].map((name) => `server/test/${name}.test.ts`);

const PLAIN_AEDES_PROJECT = {
  extends: true as const,
  test: { name: 'plain-aedes', include: PLAIN_AEDES_SUITES, env: { MQTT_FAST_PATH: 'off' } },
};

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
          name: 'unit',
          include: [
            'contracts/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'server/bench/**/*.test.ts',
            'simulator/src/**/*.test.ts',
            'web/src/**/*.test.{ts,tsx}',
            'loadtest/**/*.test.ts',
            'scripts/**/*.test.mjs',
          ],
          environmentMatchGlobs: [['web/src/**/*.test.tsx', 'jsdom']],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['server/test/**/*.test.ts'],
        },
      },
      PLAIN_AEDES_PROJECT,
      // without PostgreSQL a developer's run leaves this project out and says so (hasPostgres); CI fails instead
      ...(hasPostgres ? [POSTGRES_PROJECT] : []),
    ],
  },
});
