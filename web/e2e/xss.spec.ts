// Issue 23: a device or a member cannot run script in the console. The payloads below are a device's name (and so its
// label on the cards), the text values a real MQTT device publishes, a tag category and option, a dashboard's label
// and description and the cards' titles and chart labels. Every screen that shows them is opened (device list, data
// pages and their object dialog, tag list and its option dialog, the device's tag screen, dashboard list, the
// dashboard with a map card whose marker is hovered and clicked, list, single value, title and chart cards): no script
// ran (window.__xss stays undefined), the literal text is visible, and the page saw no Content-Security-Policy
// violation (an injected element would be blocked by the policy and reported, so a violation fails the test too).
import { expect, test, type Page } from '@playwright/test';
import mqtt, { type MqttClient } from 'mqtt';
import { contracts, deviceFamilyCalls, TagType } from '@sentra/contracts';
import { T, unique } from './helpers.js';
import { openAsTenant, tenantHeaders, tenantWithApp, type TenantApp } from './access-fixtures.js';

/** The payload, where a text may be long (values from the device, dashboard label, card titles). */
const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=2</script>';
/** The same attacks within 32 characters (device name, tag category and option names). */
const IMG_SHORT = '<img src=x onerror=__xss=3>';
const SCRIPT_SHORT = '<script>__xss=4</script>';

interface Watch {
  errors: string[];
}

/** Records CSP violations (the DOM event, from the first script on), page errors and CSP console messages. */
async function watch(page: Page): Promise<Watch> {
  const w: Watch = { errors: [] };
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  page.on('pageerror', (e) => w.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) w.errors.push(`console: ${m.text()}`);
  });
  return w;
}

/** No payload ran, the page saw no CSP violation and no error. */
async function expectNoScriptRan(page: Page, w: Watch) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
  expect(w.errors).toEqual([]);
  expect(await page.locator('img[src="x"], script:not([src])').count()).toBe(0);
}

test.describe.serial('texts from devices and members are shown as text', () => {
  let page: Page;
  let w: Watch;
  let t: TenantApp;
  let device: { id: number; store_mqtt_username: string; store_mqtt_password: string };
  let client: MqttClient;
  let dashboardId: number;
  const go = async (key: string) => {
    await page.goto(`/admin/${t.domain}/${key}`);
  };

  test.beforeAll(async ({ browser, baseURL, request }) => {
    test.setTimeout(60_000);
    t = await tenantWithApp(request);
    const headers = tenantHeaders(t);
    const ok = async (res: Promise<{ json(): Promise<any> }>) => {
      const body = await (await res).json();
      expect(body.response_result, JSON.stringify(body)).toBe(0);
      return body;
    };
    // a tag category and its option named by the payloads
    await ok(
      request.post(contracts.tags.add.path, {
        data: { name: IMG_SHORT, prefix: 'xss', category: TagType.SELECTION },
        headers,
      }),
    );
    await ok(
      request.post(contracts.tags.addDefinition.path, {
        data: { name: SCRIPT_SHORT, prefix: 'xss', name_lc: 'opsi_xss' },
        headers,
      }),
    );
    // a device named by the payload, tagged with that option
    device = (
      await ok(
        request.post(Object.values(deviceFamilyCalls.mqtt.adds)[0]!.path, {
          data: { serial_number: `XSS-${unique('s')}`, name: IMG_SHORT },
          headers,
        }),
      )
    ).data;
    await ok(
      request.post(contracts.devices.edit.path, { data: { id: device.id, tags: { xss: ['opsi_xss'] } }, headers }),
    );
    // the device publishes text values, a position and an object holding the payload, over real MQTT
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${process.env.SENTRA_E2E_MQTT_PORT}`, {
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
      clientId: unique('xss'),
      reconnectPeriod: 0,
    });
    const reading = (n: number) => ({
      gps: { data: { latitude: -6.2, longitude: 106.8, note: IMG, speed: n, detail: { pesan: SCRIPT } } },
    });
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify(reading(10)), { qos: 1 });
    await client.publishAsync(`d/${device.id}/data`, JSON.stringify(reading(12)), { qos: 1 });
    // a dashboard whose label, description, card titles and chart labels are the payloads
    const gps = { sensor: 'gps', config: 'data' };
    const note = { query: 'LATEST', queryType: 'device_no_id', ...gps, param: 'note' };
    const conf_dashboard = {
      version: '2',
      config: { refresh: 0 },
      view: { decimal: 2 },
      var: {},
      dashboard: Object.fromEntries(
        [
          { key: 'judul', cat: 'TITLE', x: 0, y: 0, w: 4, h: 1, view: { title: IMG } },
          {
            key: 'peta',
            cat: 'MAP_CARD',
            x: 0,
            y: 1,
            w: 2,
            h: 3,
            model: {
              latitude: { ...note, param: 'latitude' },
              longitude: { ...note, param: 'longitude' },
              value: note,
              tags: [],
            },
            view: { title: SCRIPT },
          },
          {
            key: 'daftar',
            cat: 'LIST_CARD',
            x: 2,
            y: 1,
            w: 2,
            h: 2,
            model: { value: note, tags: [] },
            view: { title: IMG },
          },
          {
            key: 'nilai',
            cat: 'SINGLE_VALUE_CARD',
            x: 2,
            y: 3,
            w: 1,
            h: 1,
            model: { value: { query: 'LATEST', queryType: 'device', device_id: device.id, ...gps, param: 'note' } },
            view: { type: 'CUSTOM', title: SCRIPT, unit: IMG },
          },
          {
            key: 'grafik',
            cat: 'LINE_CHART_CARD',
            x: 0,
            y: 4,
            w: 4,
            h: 2,
            model: { value: { query: 'LAST', queryType: 'graph', device_id: device.id, ...gps, param: 'speed' } },
            view: {
              title: IMG,
              labels: { speed: IMG },
              xlabel: SCRIPT,
              ylabel: IMG,
              graph_unit: SCRIPT_SHORT,
              reference_line_value: 11,
              reference_line_label: IMG,
              has_dot: true,
            },
          },
        ].map((c) => [c.key, c]),
      ),
    };
    dashboardId = (
      await ok(
        request.post(contracts.dashboards.add.path, {
          data: { label: `${IMG} Dasbor`, desc: SCRIPT, conf_dashboard },
          headers,
        }),
      )
    ).id;
    page = await browser.newPage({ baseURL });
    w = await watch(page);
    await openAsTenant(page, t, '_device_list_');
  });

  test.afterAll(async () => {
    client?.end(true);
    await page?.close();
  });

  test('the device list shows the name and the tag as text', async () => {
    const row = page.getByTestId('device-row').filter({ hasText: IMG_SHORT });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('device-tags')).toContainText(`${IMG_SHORT}: ${SCRIPT_SHORT}`);
    await expectNoScriptRan(page, w);
  });

  test("the device's data pages and its object dialog show the values it sent as text", async () => {
    await go(`_device_data_detail_/${device.id}`);
    const row = (param: string) => page.locator(`[data-testid="sensor-row"][data-param="${param}"]`);
    await expect(row('note').getByTestId('sensor-value')).toHaveText(IMG);
    await row('detail').getByRole('button', { name: T.deviceData.objectValue }).click();
    await expect(page.getByRole('dialog').getByText(SCRIPT, { exact: false })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: T.deviceData.close }).click();
    await expectNoScriptRan(page, w);
    await go(`_device_data_all_/${device.id}`);
    await expect(page.getByText(IMG).first()).toBeVisible();
    await expectNoScriptRan(page, w);
  });

  test('the tag screens and the option dialog show the category and option names as text', async () => {
    await go('_tag_list_');
    await expect(page.getByRole('cell', { name: IMG_SHORT, exact: true })).toBeVisible();
    await expect(page.getByText(SCRIPT_SHORT, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: T.tags.addOptionFor(IMG_SHORT) }).click();
    await expect(page.getByRole('dialog')).toContainText(IMG_SHORT);
    await page.keyboard.press('Escape');
    await expectNoScriptRan(page, w);
    await go(`_device_edit_tag_value_/${device.id}`);
    await expect(page.getByText(IMG_SHORT).first()).toBeVisible();
    await expectNoScriptRan(page, w);
  });

  test('the dashboard list shows the label as text', async () => {
    await go('_dashboard_list_');
    await expect(page.getByTestId('dashboard-label').filter({ hasText: `${IMG} Dasbor` })).toBeVisible();
    await expectNoScriptRan(page, w);
  });

  test("the dashboard's label, card titles, list, single value, chart and the map marker's tooltip and popup are text", async () => {
    await go(`_dashboard_view_/${dashboardId}`);
    const view = page.getByTestId('dashboard-view');
    await expect(view.getByRole('heading', { name: `${IMG} Dasbor` })).toBeVisible();
    await expect(view.getByText(SCRIPT, { exact: true }).first()).toBeVisible();
    const card = (key: string) => page.locator(`[data-testid="dashboard-card"][data-key="${key}"]`);
    await expect(card('judul')).toContainText(IMG);
    await expect(card('daftar').getByTestId('card-list')).toContainText(IMG_SHORT);
    await expect(card('daftar').getByTestId('card-list')).toContainText(IMG);
    await expect(card('nilai')).toContainText(IMG);
    await expect(card('nilai')).toContainText(SCRIPT);
    // Plotly's axis titles, unit suffix and reference label (series names: plainText.render.test.tsx)
    const chart = card('grafik').getByTestId('chart');
    await expect(chart.locator('.main-svg').first()).toBeVisible();
    await expect(chart.locator('.ytick text').first()).toContainText(SCRIPT_SHORT);
    await expect(chart.locator('.g-xtitle')).toHaveText(SCRIPT);
    await expect(chart.locator('.g-ytitle')).toHaveText(IMG);
    await expect(chart.locator('.annotation-text')).toHaveText(IMG);
    // the map: the marker's tooltip on hover, its popup on click
    const map = card('peta').getByTestId('map');
    await expect(map).toHaveAttribute('data-markers', '1');
    const marker = map.locator('path.leaflet-interactive');
    await expect(marker).toHaveCount(1);
    await marker.hover({ force: true });
    await expect(page.locator('.leaflet-tooltip')).toHaveText(`${IMG_SHORT}: ${IMG}`);
    await marker.click({ force: true });
    await expect(page.locator('.leaflet-popup-content')).toContainText(IMG_SHORT);
    await expect(page.locator('.leaflet-popup-content')).toContainText(IMG);
    await expectNoScriptRan(page, w);
  });
});
