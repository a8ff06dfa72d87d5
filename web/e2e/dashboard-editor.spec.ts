// Spec 02 component editor end to end: a Dummy device with declared sensors (nav/device/devices builds its tree from
// them), a dashboard, then a card added with the editor (device → sensor → config → param), seen saved; the card
// edited again (key read-only, save confirmation); the category change confirmation; the variable dialogs.
import { expect, test, type Page } from '@playwright/test';
import { contracts, deviceFamilyCalls, fillPath } from '@sentra/contracts';
import { pick, pickDevice, select, T, unique } from './helpers.js';
import {
  addDashboard,
  confirmYes,
  openAsTenant,
  tenantHeaders,
  tenantWithApp,
  type TenantApp,
} from './access-fixtures.js';

const e = T.dashboards.editor;
const q = T.dashboards.query;
const v = T.dashboards.variables;
const SHOTS = '.tmp/screens';

test.describe.serial('the component editor', () => {
  let page: Page;
  let t: TenantApp;
  let dashboardId: number;
  let path: string;
  let deviceId: string;
  let serialA: string;

  test.beforeAll(async ({ browser, baseURL, request }) => {
    t = await tenantWithApp(request);
    serialA = unique('SN-PANEL-');
    const add = await request.post(deviceFamilyCalls.dummy.adds.dummy!.path, {
      data: {
        serial_number: serialA,
        name: 'Panel A',
        sensors: { pm: { meter: { energy: 'float', voltage: { r: 'float', s: 'float', t: 'float' } } } },
      },
      headers: tenantHeaders(t),
    });
    const added = await add.json();
    expect(added.response_result).toBe(0);
    deviceId = String(added.id ?? added.data?.id);
    // a second device: the picker is searched, not scrolled
    const other = await request.post(deviceFamilyCalls.dummy.adds.dummy!.path, {
      data: { serial_number: unique('SN-POMPA-'), name: 'Pompa Air', sensors: { pm: { meter: { energy: 'float' } } } },
      headers: tenantHeaders(t),
    });
    expect((await other.json()).response_result).toBe(0);
    dashboardId = await addDashboard(request, t, 'Monitoring Energi');
    const got = await (
      await request.get(fillPath(contracts.dashboards.get.path, { id: dashboardId }).path, {
        headers: tenantHeaders(t),
      })
    ).json();
    path = got.data.path;
    page = await browser.newPage({ baseURL });
  });
  test.afterAll(async () => {
    await page.close();
  });

  const storedConf = async () => {
    const r = await page.request.get(fillPath(contracts.dashboards.get.path, { id: dashboardId }).path, {
      headers: tenantHeaders(t),
    });
    return (await r.json()).data.conf_dashboard;
  };

  test('adds a single-value card with the editor (device → sensor → config → param) and sees it saved', async () => {
    await openAsTenant(page, t, `_dashboard_conf_/${path}`);
    await page.getByRole('button', { name: T.dashboards.screens.addComponent }).click();
    await confirmYes(page, T.dashboards.confirm.addComponentQuestion, T.dashboards.layout.editor);
    await expect(page).toHaveURL(new RegExp(`/_dashboard_conf_/${path}/add$`));
    await expect(page.getByRole('heading', { name: e.addTitle })).toBeVisible();
    // the top bar names the dashboard the card goes to (issue 28)
    await expect(page.getByTestId('page-title')).toHaveText('Monitoring Energi');

    // saving an empty form names what is missing
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(page.getByText(T.dashboards.component.keyRequired).first()).toBeVisible();

    await page.getByLabel(e.key, { exact: false }).first().fill('dua kata');
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(page.getByText(T.dashboards.component.keyNoSpaces).first()).toBeVisible();
    await page.getByRole('textbox', { name: e.key }).fill('energi');

    await pick(page, e.category, 'Single Value');
    await pick(page, e.unit, 'KWH');
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(page.getByTestId('query-row-value').getByText(T.dashboards.component.incomplete)).toBeVisible();

    // the query editor: Query under its group headings, then the dependent selectors
    await page.getByRole('button', { name: `${e.setQuery} ${e.roles.value}` }).click();
    const dialog = page.getByRole('dialog');
    await (await select(dialog, q.query)).click();
    for (const heading of Object.values(q.groups))
      await expect(page.getByRole('listbox').getByText(heading, { exact: true })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/editor-query-options.png` });
    await page.getByRole('option', { name: 'LATEST', exact: true }).click();
    await expect(dialog.getByRole('button', { name: T.common.save })).toBeDisabled();
    // the device picker is searched by name or serial number
    await dialog.getByRole('combobox', { name: q.device }).fill(serialA.slice(-6));
    await expect(page.getByTestId('device-option')).toHaveCount(1);
    await expect(page.getByTestId('device-option')).toContainText(serialA);
    await page.screenshot({ path: `${SHOTS}/editor-device-picker.png` });
    await dialog.getByRole('combobox', { name: q.device }).fill('pompa');
    await expect(page.getByTestId('device-option')).toHaveCount(1);
    await expect(page.getByTestId('device-option')).toContainText('Pompa Air');
    await pickDevice(page, dialog, 'panel', 'Panel A');
    await pick(page, q.sensor, 'pm', dialog);
    await pick(page, q.config, 'meter', dialog);
    await pick(page, q.param, 'voltage', dialog);
    // a param with children is incomplete until a Sub Param is chosen: only its real subparams are offered
    await expect(dialog.getByRole('button', { name: T.common.save })).toBeDisabled();
    await (await select(dialog, q.subparam)).click();
    await expect(page.getByRole('option')).toHaveText(['r', 's', 't']);
    await page.keyboard.press('Escape');
    await expect(dialog.getByRole('button', { name: T.common.save })).toBeDisabled();
    await pick(page, q.param, 'energy', dialog);
    await page.screenshot({ path: `${SHOTS}/editor-query-dialog.png` });
    await dialog.getByRole('button', { name: T.common.save }).click();
    await expect(page.getByTestId('query-row-value')).toContainText('LATEST · Panel A / pm / meter / energy');

    // Visualisasi: the single value card's view fields
    await page.getByRole('button', { name: v.visualization }).click();
    const vis = page.getByRole('dialog');
    await expect(vis.getByLabel(T.dashboards.view.unit_front)).toBeVisible();
    await vis.getByRole('textbox', { name: T.dashboards.view.title }).fill('Energi Panel');
    await vis.getByRole('textbox', { name: T.dashboards.view.unit, exact: true }).fill('kWh');
    await page.screenshot({ path: `${SHOTS}/editor-visualisasi.png` });
    await vis.getByRole('button', { name: T.common.save }).click();
    await page.screenshot({ path: `${SHOTS}/editor-add.png`, fullPage: true });

    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(page.getByTestId('notice').filter({ hasText: T.dashboards.notify.editSuccess })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/_dashboard_conf_/${path}$`));
    await expect(page.getByText('Energi Panel')).toBeVisible();

    const conf = await storedConf();
    expect(conf.dashboard.energi).toMatchObject({
      key: 'energi',
      cat: 'SINGLE_VALUE_CARD',
      config: { refresh: 0 },
      model: {
        value: {
          query: 'LATEST',
          queryType: 'device',
          device_id: deviceId,
          sensor: 'pm',
          config: 'meter',
          param: 'energy',
        },
      },
      view: { decimal: 2, type: 'KWH', title: 'Energi Panel', unit: 'kWh' },
    });
  });

  test('edits the card: prefilled, key read-only, saved after the confirmation', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_conf_/${path}/edit/energi`);
    await expect(page.getByRole('heading', { name: e.editTitle })).toBeVisible();
    await expect(page.getByTestId('page-title')).toHaveText('Monitoring Energi');
    const key = page.getByRole('textbox', { name: e.key });
    await expect(key).toHaveValue('energi');
    await expect(key).toHaveAttribute('readonly', '');
    await expect(page.getByTestId('query-row-value')).toContainText('LATEST · Panel A / pm / meter / energy');
    await page.getByRole('spinbutton', { name: e.decimals }).fill('3');
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await confirmYes(page, T.dashboards.confirm.saveComponent, T.common.yes);
    await expect(page.getByTestId('notice').filter({ hasText: T.dashboards.notify.editSuccess })).toBeVisible();
    expect((await storedConf()).dashboard.energi.view.decimal).toBe(3);
  });

  test("asks 'Semua variabel akan di hapus!' on a category change and clears the local variables, model and view", async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_conf_/${path}/add`);
    await page.getByRole('textbox', { name: e.key }).fill('grafik');
    await pick(page, e.category, 'Chart');
    await pick(page, e.subtype, 'Line');

    // a local variable through 'Tambah Variabel Baru'
    await page.getByRole('button', { name: v.addButton }).click();
    const add = page.getByRole('dialog', { name: v.addTitle });
    await pick(page, T.dashboards.variableForm.type, 'Function', add);
    await expect(add.getByRole('textbox', { name: T.dashboards.variableForm.key })).toHaveValue('func_a');
    await pick(page, T.dashboards.variableForm.type, 'Integer', add);
    await expect(add.getByRole('textbox', { name: T.dashboards.variableForm.key })).toHaveValue('a');
    await add.getByRole('textbox', { name: T.dashboards.variableForm.key }).fill('var_a');
    await add.getByRole('spinbutton', { name: T.dashboards.variableForm.value }).fill('7');
    await page.screenshot({ path: `${SHOTS}/editor-variable-add.png` });
    await add.getByRole('button', { name: T.common.save }).click();
    await expect(add).toBeHidden();
    await expect(page.getByText(e.localVariables(1))).toBeVisible();

    // 'Daftar Variabel' lists it and copies its key
    await page.getByRole('button', { name: v.listButton }).click();
    const list = page.getByRole('dialog', { name: v.listTitle });
    await expect(list.getByText('var_a')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/editor-variable-list.png` });
    await list.getByRole('button', { name: `${T.dashboards.variableForm.copy} var_a` }).click();
    await expect(page.getByTestId('notice').filter({ hasText: v.copied })).toBeVisible();
    await list.getByRole('button', { name: T.common.back }).click();

    await pick(page, e.category, 'Map');
    const confirm = page.getByRole('dialog').filter({ hasText: T.dashboards.confirm.clearVariables });
    await expect(confirm).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/editor-category-confirm.png` });
    await confirm.getByRole('button', { name: T.common.cancel }).click();
    await expect(page.getByText(e.localVariables(1))).toBeVisible();

    await pick(page, e.category, 'Map');
    await confirmYes(page, T.dashboards.confirm.clearVariables, T.common.yes);
    await expect(page.getByText(e.localVariables(0))).toBeVisible();
    await expect(page.getByTestId('query-row-latitude')).toBeVisible();
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(
      page.getByTestId('query-row-latitude').getByText(T.dashboards.component.latitudeRequired),
    ).toBeVisible();
    await expect(
      page.getByTestId('query-row-longitude').getByText(T.dashboards.component.longitudeRequired),
    ).toBeVisible();
  });
  test('adds a line chart: Subparam multi-select, Subparam Label tags (Tab or Enter) with the messages in order', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_conf_/${path}/add`);
    await page.getByRole('textbox', { name: e.key }).fill('tegangan');
    await pick(page, e.category, 'Chart');
    await pick(page, e.subtype, 'Line');
    await page.getByRole('button', { name: `${e.setQuery} ${e.roles.value}` }).click();
    const dialog = page.getByRole('dialog');
    await pick(page, q.query, 'AVG', dialog);
    await pickDevice(page, dialog, 'Panel', 'Panel A');
    await pick(page, q.sensor, 'pm', dialog);
    await pick(page, q.config, 'meter', dialog);
    await pick(page, q.param, 'voltage', dialog);
    await (await select(dialog, q.subparams)).click();
    await page.getByRole('option', { name: 'r', exact: true }).click();
    await page.getByRole('option', { name: 's', exact: true }).click();
    await page.keyboard.press('Escape');
    const label = dialog.getByTestId('subparam-label-input');
    await label.fill('1fasa');
    await label.press('Enter');
    await expect(dialog.getByText(q.labelDigitStart)).toBeVisible();
    await label.fill('Fasa');
    await label.press('Enter');
    await expect(dialog.getByText(q.labelCapitalStart)).toBeVisible();
    await label.fill('fasa r');
    await label.press('Enter');
    await label.fill('fasa r');
    await label.press('Tab');
    await expect(dialog.getByText(q.labelTooltip).first()).toBeVisible();
    await expect(dialog.getByRole('button', { name: T.common.save })).toBeDisabled();
    await label.fill('fasa s');
    await label.press('Tab');
    await expect(label).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/editor-query-subparams.png` });
    await dialog.getByRole('button', { name: T.common.save }).click();

    await page.getByRole('button', { name: v.visualization }).click();
    const vis = page.getByRole('dialog');
    await expect(vis.getByRole('textbox', { name: T.dashboards.view.graph_yaxis_min })).toBeVisible();
    await vis.getByRole('button', { name: T.dashboards.view.addColor }).click();
    await vis.getByRole('textbox', { name: T.dashboards.view.graph_yaxis_max }).fill('250');
    await page.screenshot({ path: `${SHOTS}/editor-visualisasi-chart.png` });
    await vis.getByRole('button', { name: T.common.save }).click();
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(page.getByTestId('notice').filter({ hasText: T.dashboards.notify.editSuccess })).toBeVisible();
    const conf = await storedConf();
    expect(conf.dashboard.tegangan).toMatchObject({
      cat: 'LINE_CHART_CARD',
      w: 2,
      h: 2,
      model: {
        value: { query: 'AVG', queryType: 'graph', subparam: ['r', 's'], subparam_label: ['fasa r', 'fasa s'] },
      },
      view: { graph_colors: ['#1976d2'], graph_yaxis_max: 250, graph_yaxis_min: 'auto' },
    });
  });

  test('adds a global filter variable through the dashboard form: the periodic options follow the range', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_edit_/${dashboardId}`);
    await page.getByRole('button', { name: v.addButton }).click();
    const add = page.getByRole('dialog', { name: v.addTitle });
    const f = T.dashboards.variableForm;
    await pick(page, f.type, 'Filter', add);
    await add.getByRole('textbox', { name: f.key }).fill('jam_ini');
    await pick(page, f.filterType, 'PERIODIC', add);
    await expect(add.getByText(T.dashboards.variables.labelRequired)).toBeVisible();
    await add.getByRole('textbox', { name: f.label }).fill('Satu jam');
    await pick(page, f.range, 'LAST_HOUR', add);
    await pick(page, f.rangeParam, '1', add);
    await (await select(add, f.period)).click();
    await expect(page.getByRole('option')).toHaveText(['minute']);
    await page.getByRole('option', { name: 'minute' }).click();
    await (await select(add, f.interval)).click();
    await expect(page.getByRole('option')).toHaveText(['1', '5', '10', '15']);
    await page.getByRole('option', { name: '5', exact: true }).click();
    await page.screenshot({ path: `${SHOTS}/editor-variable-filter.png` });
    await add.getByRole('button', { name: T.common.save }).click();
    await expect(add).toBeHidden();
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(page.getByTestId('notice').filter({ hasText: T.dashboards.notify.editSuccess })).toBeVisible();
    expect((await storedConf()).var.jam_ini).toEqual({
      _varType: 'filter',
      id: 'jam_ini',
      name: 'Satu jam',
      type: 'PERIODIC',
      range: 'LAST_HOUR',
      range_param: 1,
      period: 'minute',
      interval: 5,
    });
  });
  test('adds an If/else card: Condition with its example, the Number/String toggle clearing True and False', async () => {
    await page.goto(`/admin/${t.domain}/_dashboard_conf_/${path}/add`);
    await page.getByRole('textbox', { name: e.key }).fill('status_panel');
    await pick(page, e.category, 'Single Value');
    await page.getByRole('button', { name: `${e.setQuery} ${e.roles.value}` }).click();
    const dialog = page.getByRole('dialog');
    await pick(page, q.query, 'If/else', dialog);
    await expect(dialog.getByText(`${e.example}: ${q.conditionHint}`)).toBeVisible();
    await dialog.getByRole('textbox', { name: q.condition }).fill('{var_a} * 2 > {var_b}');
    await dialog.getByRole('spinbutton', { name: q.trueValue }).fill('1');
    await dialog.getByRole('spinbutton', { name: q.falseValue }).fill('0');
    await expect(dialog.getByRole('button', { name: T.common.save })).toBeEnabled();
    await dialog.getByRole('button', { name: q.string, exact: true }).click();
    await expect(dialog.getByRole('textbox', { name: q.trueValue })).toHaveValue('');
    await expect(dialog.getByRole('button', { name: T.common.save })).toBeDisabled();
    await dialog.getByRole('textbox', { name: q.trueValue }).fill('Normal');
    await dialog.getByRole('textbox', { name: q.falseValue }).fill('Alarm');
    await page.screenshot({ path: `${SHOTS}/editor-query-condition.png` });
    await dialog.getByRole('button', { name: T.common.save }).click();
    await page.getByRole('button', { name: T.common.save, exact: true }).click();
    await expect(page.getByTestId('notice').filter({ hasText: T.dashboards.notify.editSuccess })).toBeVisible();
    expect((await storedConf()).dashboard.status_panel.model.value).toEqual({
      query: 'IFELSE',
      queryType: 'condition_bool',
      condition: '{var_a} * 2 > {var_b}',
      true_condition: 'Normal',
      false_condition: 'Alarm',
    });
  });
});
