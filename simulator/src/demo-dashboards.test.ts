// What the demo must show: the dashboards `installDemoDashboards` adds, their card types, the devices each card reads,
// and the invariants a user relies on (every card stored as the console stores it, placed on the grid without
// overlapping, at least its minimum size, and reading a series its device really reports under the fleet's seed).
// Stated here rather than kept as a snapshot of the JSON text: a snapshot is accepted with `-u` without reading it.
import { describe, expect, it } from 'vitest';
import {
  CARD_TYPES,
  ConfDashboard,
  STATE_CONFIG,
  STATE_SENSOR,
  gridHeight,
  isCardType,
  type CardTypeCode,
} from '@sentra/contracts';
import { DEMO_FLEET, demoDashboards } from './demo.js';
import { planFleet } from './fleet/plan.js';
import { PROFILES, Simulation, type ProfileName } from './profiles/index.js';
import { SIM_EPOCH } from './profiles/clock.js';

const plans = planFleet({ ...DEMO_FLEET, domain: 'demo' });
const devices = plans.map((plan) => ({ plan, id: 1000 + plan.index }));
const byId = new Map(devices.map((d) => [d.id, d]));
type Dashboards = ReturnType<typeof demoDashboards>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Card = Record<string, any>;
const cardsOf = (d: Dashboards[number]) => Object.values(d.conf_dashboard.dashboard as Record<string, Card>);

/** the queries of a card (value, output, latitude, ...): every model entry that names what to read */
const queriesOf = (card: Card): Card[] =>
  Object.values((card.model ?? {}) as Record<string, unknown>).filter(
    (q): q is Card => typeof q === 'object' && q !== null && 'query' in q,
  );

/** every device id a card names, wherever in its model (a button's command names its device outside a query) */
const devicesOf = (card: Card): number[] =>
  [...new Set(JSON.stringify(card.model ?? {}).match(/"device_id":\d+/g) ?? [])].map((m) => Number(m.split(':')[1]));

/** per dashboard, each card as "type@family/profile" of the devices it reads ("" for none or by tags) */
function shown(dashboards: Dashboards): Record<string, string[]> {
  return Object.fromEntries(
    dashboards.map((d) => [
      d.path,
      cardsOf(d).map((card) => {
        const read = devicesOf(card)
          .map((id) => `${byId.get(id)!.plan.family}/${byId.get(id)!.plan.profile}`)
          .join(',');
        return `${card.cat}@${read}`;
      }),
    ]),
  );
}

const PLUG_CARDS = {
  laundry: ['INPUT_TOGGLE_CARD@tasmota/plug', 'SINGLE_VALUE_CARD@tasmota/plug'],
  lingkungan: ['INPUT_TOGGLE_CARD@tasmota/environment', 'SINGLE_VALUE_CARD@tasmota/environment'],
};
const SHOWN = {
  energi: [
    'TITLE@',
    'THREE_PHASE_CARD@mqtt/meter',
    'THREE_PHASE_CARD@mqtt/meter',
    'SINGLE_VALUE_CARD@mqtt/meter',
    'SINGLE_VALUE_CARD@mqtt/meter',
    'SINGLE_VALUE_CARD@mqtt/meter',
    'SINGLE_VALUE_CARD@mqtt/meter',
    'LINE_CHART_CARD@mqtt/meter',
    'BAR_CHART_CARD@mqtt/meter',
    'LIST_CARD@',
  ],
  spbu: [
    'TITLE@',
    'LINE_MONITORING_CHART_CARD@mqtt/fuel',
    'LINE_MONITORING_CHART_CARD@mqtt/fuel',
    'LINE_MONITORING_CHART_CARD@mqtt/fuel',
    'BAR_CHART_CARD@mqtt/fuel',
    'SINGLE_VALUE_CARD@mqtt/fuel',
    'SINGLE_VALUE_CARD@mqtt/fuel',
    'SINGLE_VALUE_CARD@mqtt/fuel',
    'LIST_CARD@',
  ],
  laundry: [
    'TITLE@',
    'SINGLE_VALUE_CARD@mqtt/laundry',
    'SINGLE_VALUE_CARD@mqtt/laundry',
    'SINGLE_VALUE_CARD@mqtt/laundry',
    'SINGLE_VALUE_CARD@mqtt/laundry',
    'PIE_CHART_CARD@mqtt/laundry',
    'PIE_CHART_CARD@mqtt/laundry',
    'BAR_CHART_CARD@mqtt/laundry',
    'BAR_CHART_CARD@mqtt/laundry',
    'BUTTON_CARD@mqtt/laundry',
  ],
  lingkungan: [
    'TITLE@',
    'SINGLE_VALUE_CARD@mqtt/environment',
    'SINGLE_VALUE_CARD@mqtt/environment',
    'SINGLE_VALUE_CARD@mqtt/environment',
    'SINGLE_VALUE_CARD@mqtt/environment',
    'LINE_CHART_CARD@mqtt/environment',
    'LIST_CARD@',
  ],
  struktur: [
    'TITLE@',
    'STRAIN_CARD@sentraEnd/structural',
    'CRACK_CARD@sentraEnd/structural',
    'LINE_CHART_CARD@sentraEnd/structural',
  ],
  peta_armada: [
    'TITLE@',
    'MAP_CARD@',
    'COORDINATE_CARD@mqtt/gps',
    'SINGLE_VALUE_CARD@mqtt/gps',
    'SINGLE_VALUE_CARD@mqtt/gps',
    'LIST_CARD@',
  ],
};

/** the invariants every demo dashboard keeps, for the devices and seed it was built from */
function expectSound(dashboards: Dashboards, seed: string | number) {
  const paths = dashboards.map((d) => d.path);
  expect(new Set(paths).size, 'one dashboard per path').toBe(paths.length);
  for (const d of dashboards) {
    expect(d.label.length, d.path).toBeGreaterThan(0);
    expect(d.desc.length, d.path).toBeGreaterThan(0);
    // stored as the console stores it
    expect(ConfDashboard.safeParse(d.conf_dashboard).success, `${d.path}: conf_dashboard`).toBe(true);
    const taken = new Set<string>();
    for (const [key, card] of Object.entries(d.conf_dashboard.dashboard as Record<string, Card>)) {
      const where = `${d.path}/${key}`;
      expect(card.key, where).toBe(key);
      expect(isCardType(card.cat), `${where}: ${card.cat}`).toBe(true);
      // on the four-column grid, not below its minimum size (heights are stored halved: gridHeight), overlapping no
      // other card
      const size = CARD_TYPES[card.cat as CardTypeCode].size as { minW: number; minH: number };
      const h = gridHeight(card.cat as CardTypeCode, card.h);
      expect(card.x + card.w, `${where}: past the grid`).toBeLessThanOrEqual(4);
      expect(card.w, `${where}: narrower than its minimum`).toBeGreaterThanOrEqual(size.minW);
      expect(h, `${where}: lower than its minimum`).toBeGreaterThanOrEqual(size.minH);
      for (let x = card.x; x < card.x + card.w; x++)
        for (let y = card.y; y < card.y + h; y++) {
          expect(taken.has(`${x},${y}`), `${where}: overlaps at ${x},${y}`).toBe(false);
          taken.add(`${x},${y}`);
        }
      for (const id of devicesOf(card)) expect(byId.has(id), `${where}: device ${id} is not in the fleet`).toBe(true);
      // every query of a device reads a series that device reports (a state: the plug's POWER)
      for (const q of queriesOf(card)) {
        if (q.device_id === undefined) continue;
        const device = byId.get(q.device_id);
        expect(device, `${where}: device ${q.device_id} is not in the fleet`).toBeDefined();
        if (q.sensor === STATE_SENSOR && q.config === STATE_CONFIG) {
          expect(q.param, where).toBe('POWER');
          continue;
        }
        // a Tasmota device's series are named by its firmware's message (BME280/Temperature), not by the profile
        if (device!.plan.family === 'tasmota') continue;
        const reading = new Simulation(
          PROFILES[device!.plan.profile as ProfileName],
          seed,
          device!.plan.index,
          SIM_EPOCH,
        ).reading().data as Record<string, Record<string, Record<string, unknown>>>;
        const value = reading[q.sensor]?.[q.config]?.[q.param];
        expect(value, `${where}: ${q.sensor}/${q.config}/${q.param} is not reported`).toBeDefined();
        const subs = q.subparam === undefined ? [] : [q.subparam].flat();
        for (const sub of subs)
          expect(value, `${where}: ${q.param}.${sub} is not reported`).toHaveProperty([String(sub)]);
      }
    }
  }
}

describe('the demo dashboards', () => {
  it('show energy, fuel station, laundry, environment, structure and the fleet map, each card reading its devices', () => {
    const dashboards = demoDashboards(devices);
    expect(dashboards.map((d) => d.label)).toEqual([
      'Energi',
      'SPBU',
      'Laundry',
      'Lingkungan',
      'Struktur',
      'Peta Armada',
    ]);
    expect(shown(dashboards)).toEqual({
      ...SHOWN,
      laundry: [...SHOWN.laundry, ...PLUG_CARDS.laundry],
      lingkungan: [...SHOWN.lingkungan, ...PLUG_CARDS.lingkungan],
    });
    expectSound(dashboards, DEMO_FLEET.seed);
  });

  it('leave the plug cards out when the fleet has no Tasmota plugs, and nothing else', () => {
    const dashboards = demoDashboards(devices.filter((d) => d.plan.family !== 'tasmota'));
    expect(shown(dashboards)).toEqual(SHOWN);
    expectSound(dashboards, DEMO_FLEET.seed);
  });

  it('follow the seed: products, machines and gauges are read from the devices as they report under it', () => {
    const dashboards = demoDashboards(devices, 'another seed');
    expect(shown(dashboards)).toEqual(shown(demoDashboards(devices)));
    expectSound(dashboards, 'another seed');
  });

  it('leave out the dashboard of a kind the fleet lacks', () => {
    const dashboards = demoDashboards(devices.filter((d) => d.plan.profile !== 'fuel'));
    expect(dashboards.map((d) => d.path)).not.toContain('spbu');
    expect(dashboards).toHaveLength(5);
  });
});
