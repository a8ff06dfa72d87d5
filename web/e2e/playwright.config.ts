// End-to-end tests of the console in Debian's Chromium (never a downloaded browser), against the built gateway
// (server/dist) serving the built console (web/dist), started once by global-setup.ts on a free loopback port.
import { defineConfig } from '@playwright/test';

export const BASE_URL_ENV = 'SENTRA_E2E_URL';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: '../../test-results/e2e',
  use: {
    // global-setup exports the gateway's address; workers load this file again after it ran
    baseURL: process.env[BASE_URL_ENV],
    headless: true,
    locale: 'id-ID',
    timezoneId: 'Asia/Jakarta',
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
