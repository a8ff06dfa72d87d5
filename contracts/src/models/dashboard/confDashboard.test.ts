import { describe, expect, it } from 'vitest';
import { T } from '../../text/id.js';
import { ConfDashboard, dashboardRefreshMs, issuePath } from './confDashboard.js';
import { EXAMPLE_COMPONENTS, exampleDashboard } from './examples.js';
import { rejection } from './testing.js';

const t = T.dashboards;
const dashboardWith = (patch: Record<string, unknown>) => ({ ...exampleDashboard(), ...patch });

describe('conf_dashboard version "2"', () => {
  it('round-trips a dashboard holding a card of every category', () => {
    const dashboard = exampleDashboard();
    expect(ConfDashboard.parse(dashboard)).toEqual(dashboard);
  });

  it.each(Object.keys(EXAMPLE_COMPONENTS))('round-trips a dashboard with only the %s card', (key) => {
    const dashboard = dashboardWith({ dashboard: { [key]: EXAMPLE_COMPONENTS[key] } });
    expect(ConfDashboard.parse(dashboard)).toEqual(dashboard);
  });

  it('round-trips a custom URL dashboard', () => {
    const dashboard = {
      version: '2',
      type: 'custom_url',
      custom_url: 'https://grafana.example.com/d/x',
      config: { refresh: 0 },
    };
    expect(ConfDashboard.parse(dashboard)).toEqual(dashboard);
  });

  it('rejects any version but "2"', () => {
    expect(rejection(ConfDashboard, dashboardWith({ version: '1' }))[0].path).toBe('version');
  });

  it('rejects a custom URL dashboard without its URL', () => {
    expect(rejection(ConfDashboard, dashboardWith({ type: 'custom_url' }))).toEqual([
      { path: 'custom_url', message: T.common.required },
    ]);
  });

  it('rejects a custom URL that is not http(s), and takes an empty one as none on a normal dashboard', () => {
    expect(
      rejection(ConfDashboard, dashboardWith({ type: 'custom_url', custom_url: 'javascript:alert(1)' }))[0].path,
    ).toBe('custom_url');
    expect(ConfDashboard.safeParse(dashboardWith({ custom_url: '' })).success).toBe(true);
    expect(rejection(ConfDashboard, dashboardWith({ type: 'custom_url', custom_url: '' }))[0].path).toBe('custom_url');
  });

  it('rejects unknown top-level fields', () => {
    expect(rejection(ConfDashboard, dashboardWith({ dashbaord: {} }))[0].path).toBe('');
  });

  it(`rejects a missing refresh rate with "${t.form.refreshRequired}"`, () => {
    expect(rejection(ConfDashboard, dashboardWith({ config: {} }))).toEqual([
      { path: 'config.refresh', message: t.form.refreshRequired },
    ]);
  });

  it.each([300, 499, -1])(`rejects refresh %i with "${t.form.refreshMin}"`, (refresh) => {
    expect(rejection(ConfDashboard, dashboardWith({ config: { refresh } }))).toEqual([
      { path: 'config.refresh', message: t.form.refreshMin },
    ]);
  });

  it.each([0, 500, 60000])('accepts refresh %i (0 is auto, else at least 500 ms)', (refresh) => {
    expect(ConfDashboard.safeParse(dashboardWith({ config: { refresh } })).success).toBe(true);
  });

  it.each([-1, 6, 2.5])('rejects decimals %s (0 to 5)', (decimal) => {
    expect(rejection(ConfDashboard, dashboardWith({ view: { decimal } }))).toEqual([
      { path: 'view.decimal', message: t.form.decimalRange },
    ]);
  });

  it('rejects a component stored under another key than its own', () => {
    const dashboard = dashboardWith({ dashboard: { other: EXAMPLE_COMPONENTS.voltage } });
    expect(rejection(ConfDashboard, dashboard)).toEqual([
      { path: 'dashboard.other.key', message: T.common.invalidInput },
    ]);
  });

  it('names the path of a deep error, as the server answers it with -10', () => {
    const trend = structuredClone(EXAMPLE_COMPONENTS.trend) as any;
    trend.model.value.subparam_label = ['1fasa', 'fasa s'];
    const result = ConfDashboard.safeParse(dashboardWith({ dashboard: { trend } }));
    expect(result.success).toBe(false);
    expect(issuePath(result.error!.issues[0])).toBe('dashboard.trend.model.value.subparam_label.0');
  });

  it('validates global variables with the variable rules', () => {
    expect(rejection(ConfDashboard, dashboardWith({ var: { 'var a': 'x' } }))).toEqual([
      { path: 'var.var a', message: t.variables.keyNoSpaces },
    ]);
  });
});

describe('dashboardRefreshMs', () => {
  const cards = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, {}]));
  it('is the dashboard own rate when it has one', () => {
    expect(dashboardRefreshMs({ config: { refresh: 2500 }, dashboard: cards(30) })).toBe(2500);
  });
  it('is 1000 ms per component for "auto" with more than 5 components, else none', () => {
    expect(dashboardRefreshMs({ config: { refresh: 0 }, dashboard: cards(6) })).toBe(6000);
    expect(dashboardRefreshMs({ config: { refresh: 0 }, dashboard: cards(30) })).toBe(30_000);
    expect(dashboardRefreshMs({ config: { refresh: 0 }, dashboard: cards(5) })).toBe(0);
    expect(dashboardRefreshMs({})).toBe(0);
  });
});
