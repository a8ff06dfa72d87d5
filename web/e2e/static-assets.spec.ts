// The cold load of a demo dashboard (issue 28: "every asset is served uncompressed", 2.2 MB): in a fresh browser
// context (empty cache) the energy demo dashboard is opened once as Chromium asks by default (br, gzip) and once asking
// for identity only (as the gateway answered before). Every script and style of the first load comes brotli-compressed
// and cacheable for a year; the bytes on the wire of both loads are printed and written to
// test-results/static-assets/cold-load.json. A small fleet (8 devices, no history) is enough: the bytes are the
// console's, not the data's.
import fs from 'node:fs';
import { expect, test, type Browser } from '@playwright/test';
import {
  demoDashboards,
  DEMO_FLEET,
  installDemoDashboards,
  runFleet,
  type FleetHandle,
} from '../../simulator/src/index.js';
import { openAsTenant, tenantWithApp, type TenantApp } from './access-fixtures.js';

const OUT = 'test-results/static-assets';
const sum = (assets: Load['assets']) => assets.reduce((n, a) => n + a.bytes, 0);

interface Load {
  requests: number;
  /** response bodies as sent (encoded) plus headers, over every request of the load */
  transferred: number;
  /** scripts and styles of /assets/: their encodings and cache headers */
  assets: { url: string; encoding: string; cacheControl: string; vary: string; bytes: number }[];
}

async function coldLoad(
  browser: Browser,
  baseURL: string,
  t: TenantApp,
  dashboardId: number,
  extraHTTPHeaders?: Record<string, string>,
): Promise<Load> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1366, height: 768 },
    ...(extraHTTPHeaders ? { extraHTTPHeaders } : {}),
  });
  const page = await context.newPage();
  const load: Load = { requests: 0, transferred: 0, assets: [] };
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const sizes = await request.sizes();
        load.requests++;
        load.transferred += sizes.responseBodySize + sizes.responseHeadersSize;
        const url = new URL(request.url());
        if (!/^\/assets\/.+\.(js|css)$/.test(url.pathname)) return;
        const headers = (await request.response())?.headers() ?? {};
        load.assets.push({
          url: url.pathname,
          encoding: headers['content-encoding'] ?? 'identity',
          cacheControl: headers['cache-control'] ?? '',
          vary: headers.vary ?? '',
          bytes: sizes.responseBodySize,
        });
      })(),
    );
  });
  await openAsTenant(page, t, `_dashboard_view_/${dashboardId}`);
  await expect(page.getByTestId('dashboard-card').first()).toBeVisible();
  // the chart chunk is the largest asset: wait for a chart drawn, then for the loads to settle
  await expect(page.getByTestId('chart').first()).toBeVisible({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await context.close();
  return load;
}

test.describe.serial('a cold load of a demo dashboard', () => {
  let fleet: FleetHandle;
  let t: TenantApp;
  let energi: number;

  test.beforeAll(async ({ request, baseURL }) => {
    test.setTimeout(120_000);
    t = await tenantWithApp(request);
    const gateway = { url: baseURL!, username: t.username, password: t.pass, domain: t.domain };
    fleet = await runFleet({
      ...gateway,
      mqtt: `mqtt://127.0.0.1:${process.env.SENTRA_E2E_MQTT_PORT}`,
      devices: 8,
      rate: 0.5,
      seed: DEMO_FLEET.seed,
      ramp: 100,
    });
    energi = (await installDemoDashboards(gateway, demoDashboards(fleet.devices, DEMO_FLEET.seed))).ids.energi!;
  });
  test.afterAll(async () => {
    await fleet?.stop();
  });

  test('transfers every script and style brotli-compressed and cacheable for a year, far fewer bytes than uncompressed', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const plain = await coldLoad(browser, baseURL!, t, energi, { 'accept-encoding': 'identity' });
    const compressed = await coldLoad(browser, baseURL!, t, energi);
    const figures = {
      uncompressed_bytes: plain.transferred,
      uncompressed_requests: plain.requests,
      compressed_bytes: compressed.transferred,
      compressed_requests: compressed.requests,
      assets: compressed.assets.length,
      asset_bytes_uncompressed: sum(plain.assets),
      asset_bytes_compressed: sum(compressed.assets),
    };
    console.log('cold load of the energy demo dashboard', JSON.stringify(figures));
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(`${OUT}/cold-load.json`, JSON.stringify(figures, null, 2));

    expect(plain.assets.length).toBeGreaterThan(0);
    expect(
      plain.assets.filter((a) => a.encoding !== 'identity'),
      'identity asked, identity answered',
    ).toEqual([]);
    expect(compressed.assets.length).toBeGreaterThan(0);
    for (const a of compressed.assets) {
      expect(a.cacheControl, a.url).toBe('public, max-age=31536000, immutable');
      expect(a.vary.toLowerCase(), a.url).toContain('accept-encoding');
    }
    // every one the build compressed (from 1 kB: below, a copy saves a few hundred bytes at most) comes as brotli
    const plainBytes = new Map(plain.assets.map((a) => [a.url, a.bytes]));
    const worthIt = compressed.assets.filter((a) => (plainBytes.get(a.url) ?? 0) >= 1024);
    expect(worthIt.length).toBeGreaterThan(10);
    expect(
      worthIt.filter((a) => a.encoding !== 'br').map((a) => a.url),
      'scripts and styles of 1 kB or more not sent as brotli',
    ).toEqual([]);
    expect(compressed.transferred).toBeLessThan(plain.transferred / 2.5);
  });
});
