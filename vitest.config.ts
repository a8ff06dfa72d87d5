// One vitest run covers every workspace: unit tests beside the code, integration tests under server/test.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
    globalSetup: ['vitest.global-setup.ts'],
    pool: 'forks',
    testTimeout: 20000,
    hookTimeout: 30000,
  },
});
