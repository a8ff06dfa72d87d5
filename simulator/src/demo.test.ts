import { describe, expect, it } from 'vitest';
import { STATE_CONFIG, STATE_SENSOR, gridHeight, type CardTypeCode, type ComponentInput } from '@sentra/contracts';
import { DEMO_FLEET, demoDashboardProblems, demoDashboards, demoRole } from './demo.js';
import { planFleet } from './fleet/plan.js';

describe('the demo', () => {
  const plans = planFleet({ ...DEMO_FLEET, domain: 'demo' });
  const devices = plans.map((plan) => ({ plan, id: 1000 + plan.index }));
  const dashboards = demoDashboards(devices);

  it('runs a few hundred devices of every family', () => {
    expect(plans.length).toBe(300);
    expect(new Set(plans.map((p) => p.family)).size).toBe(12);
  });

  it('has energy, fuel station, laundry, environment, structure and fleet map dashboards that the gateway accepts', () => {
    expect(dashboards.map((d) => d.path)).toEqual([
      'energi',
      'spbu',
      'laundry',
      'lingkungan',
      'struktur',
      'peta_armada',
    ]);
    expect(demoDashboardProblems(dashboards)).toEqual([]);
  });

  it('lays every dashboard out on the grid without two cards overlapping once heights are doubled on load', () => {
    for (const d of dashboards) {
      const cells = new Map<string, string>();
      for (const c of Object.values(d.conf_dashboard.dashboard ?? {})) {
        const h = gridHeight(c.cat as CardTypeCode, c.h);
        for (let x = c.x; x < c.x + c.w; x++) {
          for (let y = c.y; y < c.y + h; y++) {
            expect(cells.get(`${x},${y}`), `${d.path}: ${c.key} overlaps at ${x},${y}`).toBeUndefined();
            cells.set(`${x},${y}`, c.key);
          }
        }
      }
    }
  });

  it('reads each dashboard with a default view filter: today by the hour, or the last hour for the trends', () => {
    const defaults = Object.fromEntries(
      dashboards.map((d) => [
        d.path,
        Object.values(d.conf_dashboard.var ?? {}).find((v) => (v as { is_default?: boolean }).is_default),
      ]),
    );
    for (const path of ['energi', 'spbu', 'laundry', 'peta_armada'])
      expect(defaults[path], path).toMatchObject({ _varType: 'filter', range: 'TODAY', period: 'hour', interval: 1 });
    for (const path of ['lingkungan', 'struktur'])
      expect(defaults[path], path).toMatchObject({ _varType: 'filter', range: 'LAST_HOUR', range_param: 1 });
  });

  const cards = (path: string) =>
    Object.values(dashboards.find((d) => d.path === path)!.conf_dashboard.dashboard ?? {}) as ComponentInput[];

  it("draws one tank chart per product with the fuel tooltip: the product's volume and fill in one graph query", () => {
    const tanks = cards('spbu').filter((c) => c.view?.tooltip === 'fuel');
    expect(tanks.length).toBeGreaterThanOrEqual(3);
    for (const c of tanks) {
      expect(c.model?.value).toMatchObject({
        queryType: 'graph',
        sensor: 'tank',
        config: 'data',
        subparam: ['volume', 'fill'],
        subparam_label: ['sisa_bbm', 'pengisian'],
      });
      expect(c.view).toMatchObject({ fill_key: 'pengisian', graph_unit: 'L' });
    }
    expect(tanks.map((c) => (c.model?.value as { param: string }).param)).toEqual(
      expect.arrayContaining(['Pertalite', 'Pertamax', 'Biosolar']),
    );
  });

  it('switches the Tasmota plugs with toggle cards reading and writing their POWER state', () => {
    for (const [path, key] of [
      ['laundry', 'mesin_tasmota'],
      ['lingkungan', 'kipas'],
    ] as const) {
      const toggle = cards(path).find((c) => c.key === key)!;
      const power = { sensor: STATE_SENSOR, config: STATE_CONFIG, param: 'POWER' };
      expect(toggle).toMatchObject({
        cat: 'INPUT_TOGGLE_CARD',
        model: { status: { query: 'LATEST', queryType: 'device', ...power }, config: power },
      });
      const plug = devices.find((d) => d.id === (toggle.model?.config as { device_id: number }).device_id)!;
      expect(plug.plan.family).toBe('tasmota');
    }
  });

  it("starts a washer with the laundry's button: the card's value names the machine", () => {
    expect(cards('laundry').find((c) => c.key === 'mulai_cuci')!.model?.config).toMatchObject({
      param: 'start',
      value: 'w1',
    });
  });

  it('names the registered devices by id', () => {
    const fuel = devices.find((d) => d.plan.family === 'mqtt' && d.plan.profile === 'fuel')!;
    expect(JSON.stringify(dashboards.find((d) => d.path === 'spbu'))).toContain(`"device_id":${fuel.id}`);
  });
});

describe('the demo copy and roles', () => {
  const plans = planFleet({ ...DEMO_FLEET, domain: 'demo' });
  const devices = plans.map((plan) => ({ plan, id: 1000 + plan.index }));
  const dashboards = demoDashboards(devices);
  const texts = dashboards.flatMap((d) => [
    d.desc,
    ...Object.values(d.conf_dashboard.dashboard ?? {}).map((c) =>
      String((c.view as { title?: string } | undefined)?.title ?? ''),
    ),
  ]);

  it('never doubles a word in a title or description ("Mesin Mesin Laundry", "Sensor Sensor Lingkungan")', () => {
    for (const t of texts) expect(t, t).not.toMatch(/\b(\w+) \1\b/i);
  });

  it('builds every list and map card on a role tag, and tags only devices reporting the series those cards read', () => {
    const tagged = dashboards.flatMap((d) =>
      Object.values(d.conf_dashboard.dashboard ?? {}).filter((c) => c.cat === 'LIST_CARD' || c.cat === 'MAP_CARD'),
    );
    expect(tagged.length).toBe(5);
    for (const c of tagged)
      expect((c.model as { tags?: string[] }).tags, c.key).toEqual([
        expect.stringMatching(/^peran:(panel_listrik|spbu|node_lora|armada)$/),
      ]);
    expect(plans.filter((p) => demoRole(p) === 'armada').every((p) => p.profile === 'gps')).toBe(true);
    expect(
      plans.filter((p) => demoRole(p) === 'panel').every((p) => p.profile === 'meter' && p.wire === 'generic'),
    ).toBe(true);
  });
});
