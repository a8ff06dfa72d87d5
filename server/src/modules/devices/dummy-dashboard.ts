// "Generate Dashboard" for a dummy device (application/nav/add/dum): a version "2" dashboard with one LATEST
// single-value card per sensor parameter found in the device's sensor configuration.
import {
  CARD_TYPES,
  GRID_COLUMNS,
  storedHeight,
  type ComponentInput,
  type ConfDashboardInput,
} from '@sentra/contracts';
import { uniquePath } from '../dashboards/paths.js';

const MAX_CARDS = 60;
/** smallest single-value card, in stored units (heights are halved on save), laid out on the 4-column grid */
const CARD = {
  w: CARD_TYPES.SINGLE_VALUE_CARD.size.minW,
  h: storedHeight('SINGLE_VALUE_CARD', CARD_TYPES.SINGLE_VALUE_CARD.size.minH),
};
const PER_ROW = Math.floor(GRID_COLUMNS / CARD.w);

export interface SensorParam {
  sensor: string;
  configtype: string;
  param: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The parameters of a sensor configuration: `{ sensor: { configtype: { param: ... } } }` (the d/<id>/data shape), or
 * an array of `{ sensor, configtype, param }` rows.
 */
export function sensorParams(sensors: unknown): SensorParam[] {
  const out: SensorParam[] = [];
  if (Array.isArray(sensors)) {
    for (const s of sensors) {
      if (isObject(s) && typeof s.sensor === 'string' && typeof s.param === 'string') {
        out.push({
          sensor: s.sensor,
          configtype: typeof s.configtype === 'string' ? s.configtype : 'data',
          param: s.param,
        });
      }
    }
  } else if (isObject(sensors)) {
    for (const [sensor, configs] of Object.entries(sensors)) {
      if (!isObject(configs)) continue;
      for (const [configtype, params] of Object.entries(configs)) {
        if (!isObject(params)) continue;
        for (const param of Object.keys(params)) out.push({ sensor, configtype, param });
      }
    }
  }
  return out.slice(0, MAX_CARDS);
}

/** conf_dashboard of spec 02 section 3: a title card when the device has no parameters yet. */
export function dummyDashboardConf(device: { id: number; name: string }, params: SensorParam[]): ConfDashboardInput {
  const cards: ComponentInput[] = params.length
    ? params.map((p, i) => ({
        key: `card_${i + 1}`,
        cat: 'SINGLE_VALUE_CARD',
        x: (i % PER_ROW) * CARD.w,
        y: Math.floor(i / PER_ROW) * CARD.h,
        w: CARD.w,
        h: CARD.h,
        config: { refresh: 0 },
        var: {},
        model: {
          value: {
            query: 'LATEST',
            queryType: 'device',
            device_id: device.id,
            sensor: p.sensor,
            config: p.configtype,
            param: p.param,
            param_label: p.param,
          },
        },
        view: { type: 'CUSTOM', title: `${p.sensor} ${p.param}`, unit: '', decimal: 2 },
      }))
    : [
        {
          key: 'card_1',
          cat: 'TITLE',
          x: 0,
          y: 0,
          w: GRID_COLUMNS,
          h: 1,
          config: { refresh: 0 },
          var: {},
          model: {},
          view: { title: device.name },
        },
      ];
  return {
    type: 'normal',
    custom_url: '',
    version: '2',
    view: { decimal: 2 },
    config: { refresh: 0 },
    var: {},
    dashboard: Object.fromEntries(cards.map((c) => [c.key, c])),
  };
}

/** How the dashboards domain adds a root dashboard (dashboards.store.ts addRootDashboard). */
export type AddRootDashboard = (input: {
  appId: number;
  label: string;
  pathFor: (taken: (path: string) => boolean) => string;
  confDashboard: string;
  createdAt: number;
}) => Promise<{ id: number; label: string; path: string }>;

/** Adds the dashboard as a root navigation item with a path derived from its label, unique in the application. */
export function createDummyDashboard(
  addRoot: AddRootDashboard,
  appId: number,
  device: { id: number; name: string; sensors: unknown },
  label: string,
  now: number,
) {
  const conf = dummyDashboardConf(device, sensorParams(device.sensors));
  return addRoot({
    appId,
    label,
    // the same path rule as every dashboard: from the label, no underscore (menus read those as system keys), unique
    pathFor: (taken) => uniquePath(label, taken),
    confDashboard: JSON.stringify(conf),
    createdAt: now,
  });
}
