// What the demo of `npm start` needs from the simulator: the fleet it runs (a few hundred mixed devices in the demo
// tenant's application) and its ready-made dashboards (energy, fuel station, laundry, environment, structure, fleet
// map) as conf_dashboard v2 documents naming the registered devices' ids. The gateway's demo seed stores them.
// Over 500 lines: most of it is the dashboards themselves, as data (demoDashboards), read as one product tour.
import {
  ConfDashboard,
  STATE_CONFIG,
  STATE_SENSOR,
  UNSCALED_HEIGHT_CARDS,
  dashboardsContract,
  devicesContract,
  navsContract,
  tagsContract,
  type CardTypeCode,
  type ComponentInput,
  type ComponentView,
  type ConfDashboardInput,
  type UnitCode,
} from '@sentra/contracts';
import { pool, RestClient, RestError } from './fleet/rest.js';
import { PROFILES, Simulation, type ProfileName, type Reading } from './profiles/index.js';
import { SIM_EPOCH } from './profiles/clock.js';
import { DEFAULTS, type FleetOptions } from './fleet/run.js';
import type { DevicePlan } from './fleet/plan.js';

/**
 * The demo fleet: 300 devices of every family, one message per device every 10 s (30 msg/s in all); on first start
 * (a fresh application) it replays a week of history before going live (fleet/run.ts `historyMs`).
 */
export const DEMO_FLEET = {
  devices: 300,
  rate: 0.1,
  profile: 'mix',
  family: 'mix',
  seed: 'demo',
  faults: 0,
  duration: 0,
  historyMs: 7 * 86_400_000,
} as const;

export function demoFleetOptions(gateway: {
  url: string;
  mqtt: string;
  username?: string;
  password?: string;
  domain?: string;
  devices?: number;
  historyMs?: number;
  tokensFile?: string;
}): FleetOptions {
  return {
    ...DEFAULTS,
    ...DEMO_FLEET,
    ...gateway,
    devices: gateway.devices ?? DEMO_FLEET.devices,
    historyMs: gateway.historyMs ?? DEMO_FLEET.historyMs,
    username: gateway.username ?? DEFAULTS.username,
    password: gateway.password ?? DEFAULTS.password,
    domain: gateway.domain ?? DEFAULTS.domain,
    appName: 'Demo Sentra',
  };
}

/**
 * The demo fleet's roles as a tag category: the list and map cards read the devices of one role (the trucks, the
 * panels reporting `pm`, the fuel stations reporting `tank`, the LoRa climate nodes) instead of the whole application.
 */
export const DEMO_ROLE = {
  prefix: 'peran',
  name: 'Peran demo',
  options: {
    panel: { name: 'Panel listrik', key: 'panel_listrik' },
    spbu: { name: 'SPBU', key: 'spbu' },
    loraNode: { name: 'Node LoRa', key: 'node_lora' },
    armada: { name: 'Armada', key: 'armada' },
  },
} as const;
type DemoRole = keyof typeof DEMO_ROLE.options;

/** The card tag of a role: "prefix:option" (cards/deviceDirectory.ts matching). */
export const roleTag = (role: DemoRole) => `${DEMO_ROLE.prefix}:${DEMO_ROLE.options[role].key}`;

/** The role of a planned device: only devices whose wire reports the series its role's cards read. */
export function demoRole(plan: Pick<DevicePlan, 'family' | 'profile'>): DemoRole | undefined {
  const generic = plan.family === 'mqtt' || plan.family === 'sentraEnd';
  if (generic && plan.profile === 'meter') return 'panel';
  if (generic && plan.profile === 'fuel') return 'spbu';
  if (generic && plan.profile === 'gps') return 'armada';
  if (plan.family === 'lora' && plan.profile === 'environment') return 'loraNode';
  return undefined;
}

/**
 * Creates the role category with its options when missing and tags each demo device with its role, through the
 * tag and device calls a person would use. Idempotent (an option or category already there is kept). Answers the
 * devices tagged.
 */
export async function tagDemoFleet(
  gateway: { url: string; username: string; password: string; domain: string },
  devices: readonly DemoDevice[],
): Promise<number> {
  const rest = new RestClient(gateway.url);
  await rest.signIn(gateway.username, gateway.password);
  rest.domain = gateway.domain;
  const have = (await rest.call(tagsContract.all, {})).categories.find((c) => c.prefix === DEMO_ROLE.prefix);
  if (!have) await rest.call(tagsContract.add, { name: DEMO_ROLE.name, prefix: DEMO_ROLE.prefix, category: 1 });
  for (const o of Object.values(DEMO_ROLE.options)) {
    if (have?.definitions.some((d) => d.name_lc === o.key)) continue;
    await rest
      .call(tagsContract.addDefinition, { name: o.name, prefix: DEMO_ROLE.prefix, name_lc: o.key })
      .catch((err) => {
        if (!(err instanceof RestError && err.code === -4)) throw err; // already there
      });
  }
  const roled = devices.flatMap((d) => {
    const role = demoRole(d.plan);
    return role ? [{ id: d.id, role }] : [];
  });
  await pool(roled, 8, async ({ id, role }) => {
    await rest.call(devicesContract.edit, { id, tags: { [DEMO_ROLE.prefix]: [DEMO_ROLE.options[role].key] } });
  });
  return roled.length;
}

export interface DemoDashboard {
  label: string;
  path: string;
  desc: string;
  conf_dashboard: ConfDashboardInput;
}

/** A registered device as the dashboards need it: its plan and the gateway's id. */
export interface DemoDevice {
  plan: Pick<DevicePlan, 'index' | 'family' | 'profile' | 'name'>;
  id: number;
}

const today = { default: { name: 'Hari ini', range: 'TODAY', period: 'hour' as const, interval: 1 } };
/** a day's figure ("Pemakaian hari ini"): today whatever range the viewer picks (the card filter's `fixed`) */
const todayFixed = { default: { ...today.default, fixed: true } };
const lastHour = {
  default: { name: '1 jam terakhir', range: 'LAST_HOUR', range_param: 1, period: 'minute' as const, interval: 5 },
};

/**
 * The layouts below are written in card rows under a title row: a card of height 1 spans one card row. The grid keeps
 * `y` in grid rows while heights are stored halved (doubled on load, titles excepted), so one card row is two grid rows
 * and the title takes the first: card row r starts at grid row 1 + 2(r − 1).
 */
const gridRow = (c: ComponentInput): number =>
  c.y === 0 || UNSCALED_HEIGHT_CARDS.includes(c.cat as CardTypeCode) ? c.y : 1 + 2 * (c.y - 1);

/**
 * The view's time filters: the dashboard view reads every card with the filter variable flagged default (spec 02
 * "Dashboard view"; without one, the last 24 hours), so each demo dashboard names the one its charts are drawn for.
 */
const VIEW_FILTERS = {
  hari_ini: {
    _varType: 'filter',
    id: 'hari_ini',
    name: 'Hari ini',
    type: 'PERIODIC',
    range: 'TODAY',
    period: 'hour',
    interval: 1,
  },
  satu_jam: {
    _varType: 'filter',
    id: 'satu_jam',
    name: '1 jam terakhir',
    type: 'PERIODIC',
    range: 'LAST_HOUR',
    range_param: 1,
    period: 'minute',
    interval: 5,
  },
} as const;

const dashboard = (
  components: ComponentInput[],
  viewFilter: keyof typeof VIEW_FILTERS = 'hari_ini',
): ConfDashboardInput => ({
  version: '2',
  type: 'normal',
  view: { decimal: 2 },
  config: { refresh: 0 },
  var: Object.fromEntries(Object.entries(VIEW_FILTERS).map(([k, f]) => [k, { ...f, is_default: k === viewFilter }])),
  dashboard: Object.fromEntries(components.map((c) => [c.key, { ...c, y: gridRow(c) }])),
});

const title = (key: string, text: string, y: number): ComponentInput => ({
  key,
  cat: 'TITLE',
  x: 0,
  y,
  w: 4,
  h: 1,
  view: { title: text },
});

const firstReading = (seed: string | number, d: DemoDevice): Reading =>
  new Simulation(PROFILES[d.plan.profile as ProfileName], seed, d.plan.index, SIM_EPOCH).reading();

/** subparam keys of a param as the device reports them */
function subparams(seed: string | number, d: DemoDevice, sensor: string, configtype: string, param: string): string[] {
  const v = firstReading(seed, d).data[sensor]?.[configtype]?.[param];
  return v !== null && typeof v === 'object' ? Object.keys(v) : [];
}

/** param keys of a sensor's configtype as the device reports them (a fuel station's products) */
const params = (seed: string | number, d: DemoDevice, sensor: string, configtype: string): string[] =>
  Object.keys(firstReading(seed, d).data[sensor]?.[configtype] ?? {});

/** A toggle card on a Tasmota plug: its status line and its switch are the plug's POWER state (docs/card-queries.md). */
function powerToggle(key: string, plug: DemoDevice, title: string, x: number, y: number): ComponentInput {
  const power = { device_id: plug.id, sensor: STATE_SENSOR, config: STATE_CONFIG, param: 'POWER' };
  return {
    key,
    cat: 'INPUT_TOGGLE_CARD',
    x,
    y,
    w: 1,
    h: 1,
    model: { status: { query: 'LATEST', queryType: 'device', ...power }, config: power },
    view: { title },
  };
}

/** the series a card reads: a device's sensor and configtype */
interface Source {
  device_id: number;
  sensor: string;
  config: string;
}

/**
 * A value card (SINGLE_VALUE_CARD, one cell) as a row of a table: its key and cell, its query on the source device (a
 * day's figure, USAGE or MAX, is read over today, whatever range the view shows), the param it reads (or
 * [param, subparam]), and its view: unit type, title, unit and any more view fields (decimals and the like).
 */
type ValueCardRow = [
  key: string,
  x: number,
  y: number,
  query: 'LATEST' | 'USAGE' | 'MAX',
  series: string | [param: string, subparam: string],
  type: UnitCode,
  title: string,
  unit: string,
  more?: Omit<ComponentView, 'type' | 'title' | 'unit'>,
];

function valueCard(source: Source, [key, x, y, query, series, type, title, unit, more]: ValueCardRow): ComponentInput {
  const [param, subparam] = typeof series === 'string' ? [series] : series;
  return {
    key,
    cat: 'SINGLE_VALUE_CARD',
    x,
    y,
    w: 1,
    h: 1,
    model: {
      value: { query, queryType: 'device', ...source, param, ...(subparam === undefined ? {} : { subparam }) },
      ...(query === 'LATEST' ? {} : { filter: todayFixed }),
    },
    view: { type, title, unit, ...more },
  };
}

/** the value cards of a table, all reading one source device */
const valueCards = (source: Source, rows: readonly ValueCardRow[]): ComponentInput[] =>
  rows.map((row) => valueCard(source, row));

const label = (s: string) => s.toLowerCase().slice(0, 16);

/**
 * The ready-made dashboards for the demo fleet, each built around the first device of its kind (generic MQTT devices:
 * their series keep readable names). A kind missing from the fleet leaves its dashboard out.
 */
export function demoDashboards(
  devices: readonly DemoDevice[],
  seed: string | number = DEMO_FLEET.seed,
): DemoDashboard[] {
  const first = (family: string, profile: ProfileName) =>
    devices.find((d) => d.plan.family === family && d.plan.profile === profile);
  const out: DemoDashboard[] = [];

  const meter = first('mqtt', 'meter');
  if (meter) {
    const s = { device_id: meter.id, sensor: 'pm', config: 'meter' };
    out.push({
      label: 'Energi',
      path: 'energi',
      desc: `${meter.plan.name}, panel tiga fasa: tegangan, arus, daya dan pemakaian kWh`,
      conf_dashboard: dashboard([
        title('judul', `Energi — ${meter.plan.name}`, 0),
        {
          key: 'tegangan',
          cat: 'THREE_PHASE_CARD',
          x: 0,
          y: 1,
          w: 1,
          h: 2,
          model: {
            value: { query: 'LATEST', queryType: 'three_phase', ...s, param: 'voltage', subparam: ['r', 's', 't'] },
          },
          view: { title: 'Tegangan', unit: 'V', decimal: 1 },
        },
        {
          key: 'arus',
          cat: 'THREE_PHASE_CARD',
          x: 1,
          y: 1,
          w: 1,
          h: 2,
          model: {
            value: { query: 'LATEST', queryType: 'three_phase', ...s, param: 'current', subparam: ['r', 's', 't'] },
          },
          view: { title: 'Arus', unit: 'A' },
        },
        ...valueCards(s, [
          ['daya', 2, 1, 'LATEST', ['power', 'total'], 'KW', 'Daya total', 'kW'],
          ['kwh_hari_ini', 3, 1, 'USAGE', 'energy', 'KWH', 'Pemakaian hari ini', 'kWh'],
          ['cos_phi', 2, 2, 'LATEST', ['pf', 'r'], 'CUSTOM', 'Faktor daya R', ''],
          ['frekuensi', 3, 2, 'LATEST', 'frequency', 'CUSTOM', 'Frekuensi', 'Hz'],
        ]),
        {
          key: 'daya_fasa',
          cat: 'LINE_CHART_CARD',
          x: 0,
          y: 3,
          w: 4,
          h: 2,
          model: {
            value: {
              query: 'AVG',
              queryType: 'graph',
              ...s,
              param: 'power',
              subparam: ['r', 's', 't'],
              subparam_label: ['fasa r', 'fasa s', 'fasa t'],
            },
            filter: today,
          },
          view: { title: 'Daya per fasa', graph_unit: 'kW', ylabel: 'kW' },
        },
        {
          key: 'pemakaian',
          cat: 'BAR_CHART_CARD',
          x: 0,
          y: 5,
          w: 2,
          h: 2,
          model: { value: { query: 'USAGE', queryType: 'graph', ...s, param: 'energy' }, filter: today },
          view: { title: 'Pemakaian energi', graph_unit: 'kWh' },
        },
        {
          key: 'semua_panel',
          cat: 'LIST_CARD',
          x: 2,
          y: 5,
          w: 2,
          h: 2,
          model: {
            value: {
              query: 'LATEST',
              queryType: 'device_no_id',
              sensor: 'pm',
              config: 'meter',
              param: 'power',
              subparam: 'total',
            },
            tags: [roleTag('panel')],
          },
          view: { title: 'Daya semua panel', unit: 'kW' },
        },
      ]),
    });
  }

  const fuel = first('mqtt', 'fuel');
  if (fuel) {
    // one param per product with subparams volume, fill, level (profiles/fuel.ts): one tank chart per product reads its
    // remaining litres and fill in one graph query, what the fuel tooltip shows (fill 0 < x < 300 L: the fraud hint).
    // MAX per hour: the fullest the tank was and the largest delivery in it, so a small fill is never hidden by the
    // zero fills after it.
    const products = params(seed, fuel, 'tank', 'data');
    const labels = products.map(label);
    const tank = { device_id: fuel.id, sensor: 'tank', config: 'data' };
    const charts: Omit<ComponentInput, 'x' | 'y'>[] = [
      ...products.map((p, i) => ({
        key: `tangki_${i + 1}`,
        cat: 'LINE_MONITORING_CHART_CARD' as const,
        w: 2,
        h: 2,
        model: {
          value: {
            query: 'MAX' as const,
            queryType: 'graph' as const,
            ...tank,
            param: p,
            subparam: ['volume', 'fill'],
            subparam_label: ['sisa_bbm', 'pengisian'],
          },
          filter: today,
        },
        view: {
          title: `Tangki ${p}`,
          graph_unit: 'L',
          ylabel: 'Liter',
          has_dot: true,
          tooltip: 'fuel' as const,
          fill_key: 'pengisian',
        },
      })),
      {
        key: 'total_shift',
        cat: 'BAR_CHART_CARD',
        w: 2,
        h: 2,
        model: {
          value: {
            query: 'MAX',
            queryType: 'graph',
            device_id: fuel.id,
            sensor: 'pump',
            config: 'data',
            param: 'shift_total',
            subparam: products,
            subparam_label: labels,
          },
          filter: today,
        },
        view: { title: 'Total penjualan per shift', graph_unit: 'L', is_stack: true, tooltip: 'fuel_shift' as const },
      },
    ];
    // two charts a row under the title, then the levels and the list
    const below = 1 + 2 * Math.ceil(charts.length / 2);
    out.push({
      label: 'SPBU',
      path: 'spbu',
      desc: `${fuel.plan.name}: sisa BBM dan pengisian per tangki (isi di bawah 300 L ditandai), totalizer per shift`,
      conf_dashboard: dashboard([
        title('judul', fuel.plan.name, 0),
        ...charts.map((c, i): ComponentInput => ({ ...c, x: (i % 2) * 2, y: 1 + 2 * Math.floor(i / 2) })),
        ...valueCards(
          tank,
          products
            .slice(0, 4)
            .map((p, i): ValueCardRow => [
              `level_${i + 1}`,
              i,
              below,
              'LATEST',
              [p, 'level'],
              'PERCENTAGE',
              `Level ${p}`,
              '%',
              { decimal: 1 },
            ]),
        ),
        {
          key: 'semua_spbu',
          cat: 'LIST_CARD',
          x: 0,
          y: below + 1,
          w: 4,
          h: 2,
          model: {
            value: {
              query: 'LATEST',
              queryType: 'device_no_id',
              sensor: 'tank',
              config: 'data',
              param: 'Pertalite',
              subparam: 'volume',
            },
            tags: [roleTag('spbu')],
          },
          view: { title: 'Sisa Pertalite semua SPBU', unit: 'L' },
        },
      ]),
    });
  }

  const laundry = first('mqtt', 'laundry');
  const machinePlug = first('tasmota', 'plug');
  if (laundry) {
    const washers = subparams(seed, laundry, 'washer', 'data', 'power');
    const dryers = subparams(seed, laundry, 'dryer', 'data', 'power');
    const m = (sensor: string) => ({ device_id: laundry.id, sensor, config: 'data' });
    const machines = { washer: washers, dryer: dryers };
    const usageView = (title: string) => ({ title, graph_unit: 'siklus', tooltip: 'laundry_usage' as const });
    out.push({
      label: 'Laundry',
      path: 'laundry',
      desc: `Outlet ${laundry.plan.name}: mesin cuci dan pengering nyala/mati, jumlah pemakaian, transaksi vending`,
      conf_dashboard: dashboard([
        title('judul', `Outlet ${laundry.plan.name}`, 0),
        ...valueCards(m('vending'), [
          ['transaksi', 0, 1, 'USAGE', 'transactions', 'CUSTOM', 'Transaksi hari ini', 'x', { decimal: 0 }],
          ['penjualan', 1, 1, 'USAGE', 'sales', 'RUPIAH', 'Penjualan hari ini', 'Rp', { unit_front: true, decimal: 0 }],
          ['mesin_jalan', 2, 1, 'LATEST', 'running', 'CUSTOM', 'Mesin berjalan', 'unit', { decimal: 0 }],
        ]),
        // the outlet's own meter beside its running machines: one device, so the two always agree
        ...valueCards(m('meter'), [
          ['daya_outlet', 3, 1, 'LATEST', 'power', 'WATT', 'Daya outlet', 'W', { decimal: 0 }],
        ]),
        // the washers' and the dryers' charts: the same card for each kind of machine
        ...(
          [
            ['cuci_nyala', 'PIE_CHART_CARD', 0, 2, 'AVG', 'washer', 'power', { title: 'Mesin cuci nyala (%)' }],
            ['kering_nyala', 'PIE_CHART_CARD', 2, 2, 'AVG', 'dryer', 'power', { title: 'Pengering nyala (%)' }],
            ['pemakaian_cuci', 'BAR_CHART_CARD', 0, 4, 'USAGE', 'washer', 'usage', usageView('Pemakaian mesin cuci')],
            ['pemakaian_kering', 'BAR_CHART_CARD', 2, 4, 'USAGE', 'dryer', 'usage', usageView('Pemakaian pengering')],
          ] as const
        ).map(([key, cat, x, y, query, sensor, param, view]): ComponentInput => ({
          key,
          cat,
          x,
          y,
          w: 2,
          h: 2,
          model: {
            value: {
              query,
              queryType: 'graph',
              ...m(sensor),
              param,
              subparam: sensor === 'washer' ? washers : dryers,
              subparam_label: sensor === 'washer' ? washers : dryers,
            },
            filter: today,
          },
          view,
        })),
        // the button sends the card's configured value: the machine to start
        {
          key: 'mulai_cuci',
          cat: 'BUTTON_CARD',
          x: 0,
          y: 6,
          w: 1,
          h: 1,
          model: {
            config: { device_id: laundry.id, sensor: 'washer', config: 'data', param: 'start', value: washers[0] },
          },
          view: { title: `Mulai ${washers[0]}`, button_label: 'Kirim' },
        },
        ...(machinePlug
          ? [
              powerToggle('mesin_tasmota', machinePlug, machinePlug.plan.name, 1, 6),
              // a machine of its own behind a smart plug: its switch and, beside it, the power that plug reads
              ...valueCards({ device_id: machinePlug.id, sensor: 'ENERGY', config: 'data' }, [
                ['daya_mesin', 2, 6, 'LATEST', 'Power', 'WATT', `Daya ${machinePlug.plan.name}`, 'W', { decimal: 0 }],
              ]),
            ]
          : []),
      ]),
    });
  }

  const env = first('mqtt', 'environment');
  const envPlug = first('tasmota', 'environment');
  if (env) {
    const e = { device_id: env.id, sensor: 'env', config: 'data' };
    out.push({
      label: 'Lingkungan',
      path: 'lingkungan',
      desc: `${env.plan.name} dan node LoRa: suhu, kelembapan, tekanan udara`,
      conf_dashboard: dashboard(
        [
          title('judul', `Lingkungan — ${env.plan.name}`, 0),
          ...valueCards(e, [
            ['suhu', 0, 1, 'LATEST', 'temperature', 'TEMP_CELCIUS', 'Suhu', '°C', { decimal: 1 }],
            ['kelembapan', 1, 1, 'LATEST', 'humidity', 'HUMIDITY', 'Kelembapan', '%', { decimal: 0 }],
            [
              'tekanan',
              2,
              1,
              'LATEST',
              'pressure',
              'PRESSURE_AIR',
              'Tekanan udara',
              'hPa',
              { decimal: 1, full_number: true },
            ],
            ['suhu_maks', 3, 1, 'MAX', 'temperature', 'TEMP_CELCIUS', 'Suhu maksimum hari ini', '°C', { decimal: 1 }],
          ]),
          {
            key: 'tren_suhu',
            cat: 'LINE_CHART_CARD',
            x: 0,
            y: 2,
            w: 4,
            h: 2,
            model: {
              value: { query: 'AVG', queryType: 'graph', ...e, param: 'temperature', param_label: 'suhu' },
              filter: lastHour,
            },
            view: { title: 'Tren suhu', graph_unit: '°C' },
          },
          {
            key: 'node_lora',
            cat: 'LIST_CARD',
            x: 0,
            y: 4,
            w: 4,
            h: 2,
            model: {
              value: {
                query: 'LATEST',
                queryType: 'device_no_id',
                sensor: 'lora',
                config: 'data',
                param: 'temperature',
              },
              tags: [roleTag('loraNode')],
            },
            view: { title: 'Suhu node LoRa', unit: '°C' },
          },
          // a Tasmota plug with a BME280 switching the server room's fan: its POWER and its own temperature
          ...(envPlug
            ? [
                powerToggle('kipas', envPlug, 'Kipas ruang server', 0, 6),
                ...valueCards({ device_id: envPlug.id, sensor: 'BME280', config: 'data' }, [
                  [
                    'suhu_kipas',
                    1,
                    6,
                    'LATEST',
                    'Temperature',
                    'TEMP_CELCIUS',
                    'Suhu ruang server',
                    '°C',
                    { decimal: 1 },
                  ],
                ]),
              ]
            : []),
        ],
        'satu_jam',
      ),
    });
  }

  const bridge = first('sentraEnd', 'structural');
  if (bridge) {
    const gauges = subparams(seed, bridge, 'strain', 'data', 'microstrain');
    const cracks = subparams(seed, bridge, 'crack', 'data', 'width');
    out.push({
      label: 'Struktur',
      path: 'struktur',
      desc: `${bridge.plan.name}: regangan dan lebar retak`,
      conf_dashboard: dashboard(
        [
          title('judul', `Struktur — ${bridge.plan.name}`, 0),
          {
            key: 'regangan',
            cat: 'STRAIN_CARD',
            x: 0,
            y: 1,
            w: 2,
            h: 2,
            model: {
              value: {
                query: 'LATEST',
                queryType: 'device',
                device_id: bridge.id,
                sensor: 'strain',
                config: 'data',
                param: 'microstrain',
                subparam: gauges[0],
              },
            },
            view: {
              title: 'Regangan',
              unit: 'µε',
              strain_labels: gauges,
              strain_curves: gauges.map(() => 'linear'),
              strain_colors: ['#1976d2', '#2e7d32', '#ed6c02'],
            },
          },
          {
            key: 'retak',
            cat: 'CRACK_CARD',
            x: 2,
            y: 1,
            w: 2,
            h: 2,
            model: {
              value: {
                query: 'LATEST',
                queryType: 'device',
                device_id: bridge.id,
                sensor: 'crack',
                config: 'data',
                param: 'width',
                subparam: cracks[0],
              },
            },
            view: {
              title: 'Lebar retak',
              unit: 'mm',
              crack_labels: cracks,
              crack_lengths: cracks.map(() => 100),
              crack_length_unit: 'cm',
              crack_colors: ['#d32f2f', '#7b1fa2'],
            },
          },
          {
            key: 'tren_regangan',
            cat: 'LINE_CHART_CARD',
            x: 0,
            y: 3,
            w: 4,
            h: 2,
            model: {
              value: {
                query: 'MAX',
                queryType: 'graph',
                device_id: bridge.id,
                sensor: 'strain',
                config: 'data',
                param: 'microstrain',
                subparam: gauges,
                subparam_label: gauges,
              },
              filter: lastHour,
            },
            view: { title: 'Regangan maksimum', graph_unit: 'µε' },
          },
        ],
        'satu_jam',
      ),
    });
  }

  const tracker = first('mqtt', 'gps');
  if (tracker) {
    const g = { device_id: tracker.id, sensor: 'gps', config: 'data' };
    out.push({
      label: 'Peta Armada',
      path: 'peta_armada',
      desc: 'Posisi dan kecepatan armada pengiriman di Jakarta',
      conf_dashboard: dashboard([
        title('judul', 'Peta Armada', 0),
        {
          key: 'peta',
          cat: 'MAP_CARD',
          x: 0,
          y: 1,
          w: 3,
          h: 2,
          model: {
            latitude: { query: 'LATEST', queryType: 'device_no_id', sensor: 'gps', config: 'data', param: 'latitude' },
            longitude: {
              query: 'LATEST',
              queryType: 'device_no_id',
              sensor: 'gps',
              config: 'data',
              param: 'longitude',
            },
            // each van's speed in its marker's tooltip and popup
            value: { query: 'LATEST', queryType: 'device_no_id', sensor: 'gps', config: 'data', param: 'speed' },
            tags: [roleTag('armada')],
          },
          view: { title: 'Armada', unit: 'km/j', decimal: 0 },
        },
        {
          key: 'koordinat',
          cat: 'COORDINATE_CARD',
          x: 3,
          y: 1,
          w: 1,
          h: 2,
          model: {
            value: { query: 'LATEST', queryType: 'device', ...g, param: 'longitude' },
            output: { query: 'LATEST', queryType: 'device', ...g, param: 'latitude' },
          },
          view: { title: tracker.plan.name, decimal: 5, axis_x: 'Bujur', axis_y: 'Lintang' },
        },
        ...valueCards(g, [
          ['kecepatan', 0, 3, 'LATEST', 'speed', 'CUSTOM', 'Kecepatan', 'km/j', { decimal: 0 }],
          ['jarak_hari_ini', 1, 3, 'USAGE', 'odometer', 'CUSTOM', 'Jarak hari ini', 'km', { decimal: 1 }],
        ]),
        {
          key: 'semua_armada',
          cat: 'LIST_CARD',
          x: 0,
          y: 4,
          w: 4,
          h: 2,
          model: {
            value: { query: 'LATEST', queryType: 'device_no_id', sensor: 'gps', config: 'data', param: 'speed' },
            tags: [roleTag('armada')],
          },
          view: { title: 'Kecepatan armada', unit: 'km/j' },
        },
      ]),
    });
  }
  return out;
}

/** Checks every demo dashboard against the conf_dashboard schema the gateway validates with; answers the problems. */
export function demoDashboardProblems(dashboards: readonly DemoDashboard[]): string[] {
  return dashboards.flatMap((d) => {
    const r = ConfDashboard.safeParse(d.conf_dashboard);
    return r.success ? [] : r.error.issues.map((i) => `${d.path}: ${i.path.join('.')} ${i.message}`);
  });
}

/**
 * Adds the demo dashboards the application does not have yet (matched by label) through the dashboards' add call,
 * as a person would in the console. For the gateway's demo seed when it runs the fleet in-process. Answers the labels
 * added and kept, and every demo dashboard's id by path.
 */
export async function installDemoDashboards(
  gateway: { url: string; username: string; password: string; domain: string },
  dashboards: readonly DemoDashboard[],
): Promise<{ added: string[]; kept: string[]; ids: Record<string, number> }> {
  const rest = new RestClient(gateway.url);
  await rest.signIn(gateway.username, gateway.password);
  rest.domain = gateway.domain;
  const have = new Map((await rest.call(navsContract.list, {})).navs.map((n) => [n.label, n.id]));
  const added: string[] = [];
  const kept: string[] = [];
  const ids: Record<string, number> = {};
  for (const d of dashboards) {
    const existing = have.get(d.label);
    if (existing !== undefined) {
      kept.push(d.label);
      ids[d.path] = existing;
      continue;
    }
    ids[d.path] = (
      await rest.call(dashboardsContract.add, { label: d.label, desc: d.desc, conf_dashboard: d.conf_dashboard })
    ).id;
    added.push(d.label);
  }
  return { added, kept, ids };
}
