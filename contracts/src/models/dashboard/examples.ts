// Valid example dashboards: one component of every card category, for tests here, the server's and the demo seed.
import type { ConfDashboardInput } from './confDashboard.js';
import type { ComponentInput } from './component.js';

const series = { device_id: 'dev1', sensor: 'pm', config: 'meter', param: 'voltage' };

/** One component per card group and editor category, keyed by its component key. */
export const EXAMPLE_COMPONENTS: Record<string, ComponentInput> = {
  title: { key: 'title', cat: 'TITLE', x: 0, y: 0, w: 4, h: 1, view: { title: 'Title' } },
  voltage: {
    key: 'voltage',
    cat: 'SINGLE_VALUE_CARD',
    x: 0,
    y: 1,
    w: 1,
    h: 1,
    config: { refresh: 0 },
    model: { value: { query: 'LATEST', queryType: 'device', ...series, subparam: 'r' } },
    view: { decimal: 2, type: 'VOLT', title: 'Tegangan R', unit: 'V' },
  },
  phases: {
    key: 'phases',
    cat: 'THREE_PHASE_CARD',
    x: 1,
    y: 1,
    w: 1,
    h: 2,
    model: { value: { query: 'LATEST', queryType: 'three_phase', ...series, subparam: ['r', 's', 't'] } },
  },
  fleet: {
    key: 'fleet',
    cat: 'LIST_CARD',
    x: 2,
    y: 1,
    w: 2,
    h: 2,
    model: {
      value: { query: 'LATEST', queryType: 'device_no_id', sensor: 'pm', config: 'meter', param: 'power' },
      tags: ['gedung_a'],
    },
  },
  trend: {
    key: 'trend',
    cat: 'LINE_CHART_CARD',
    x: 0,
    y: 3,
    w: 2,
    h: 2,
    model: {
      value: {
        query: 'AVG',
        queryType: 'graph',
        ...series,
        subparam: ['r', 's'],
        subparam_label: ['fasa r', 'fasa s'],
      },
      filter: {
        default: { name: 'Hari ini', range: 'TODAY', period: 'hour', interval: 1 },
        live: { name: 'Live', ndata: 30 },
      },
    },
    view: { graph_yaxis_min: 0, graph_yaxis_max: 'auto', graph_colors: ['#1976d2'], is_stack: false },
  },
  sites: {
    key: 'sites',
    cat: 'MAP_CARD',
    x: 2,
    y: 3,
    w: 2,
    h: 1,
    model: {
      latitude: { query: 'LATITUDE', queryType: 'none' },
      longitude: { query: 'LONGITUDE', queryType: 'none' },
      tags: [],
    },
  },
  pump: {
    key: 'pump',
    cat: 'INPUT_TOGGLE_CARD',
    x: 0,
    y: 5,
    w: 1,
    h: 1,
    model: {
      status: {
        query: 'LATEST',
        queryType: 'device',
        device_id: 'dev2',
        sensor: 'relay',
        config: 'out',
        param: 'pump',
      },
      config: { device_id: 'dev2', sensor: 'relay', config: 'out', param: 'pump' },
    },
    view: { title: 'Tombol perintah', button_label: 'Kirim' },
  },
  pumps: {
    key: 'pumps',
    cat: 'BUTTON_TAGS_CARD',
    x: 1,
    y: 5,
    w: 1,
    h: 1,
    model: { tags: ['pompa'], config: { sensor: 'relay', config: 'out', param: 'pump' } },
  },
  site: {
    key: 'site',
    cat: 'DROPDOWN_SELECTOR',
    x: 2,
    y: 5,
    w: 2,
    h: 1,
    var: { site: { _varType: 'device', ...series } },
  },
  ratio: {
    key: 'ratio',
    cat: 'SINGLE_VALUE_CARD',
    x: 0,
    y: 6,
    w: 1,
    h: 1,
    model: {
      value: {
        query: 'IFELSE',
        queryType: 'condition_bool',
        condition: '{var_a} * 2 > {var_b} + {var_c}',
        true_condition: 1,
        false_condition: 0,
      },
      affected_by: ['site'],
    },
  },
  portal: { key: 'portal', cat: 'WEBSERVICE', x: 1, y: 6, w: 2, h: 2 },
};

export function exampleDashboard(): ConfDashboardInput {
  return {
    version: '2',
    type: 'normal',
    view: { decimal: 2 },
    config: { refresh: 0 },
    var: {
      var_a: 'teks',
      var_b: 3,
      var_c: [1, 2],
      obj_a: { _varType: 'obj', queryType: 'tags', tags: ['gedung_a'] },
      func_total: {
        _varType: 'func',
        query: 'SUM',
        queryType: 'device',
        device_id: 'dev1',
        sensor: 'pm',
        config: 'meter',
        param: 'energy',
      },
      today: {
        _varType: 'filter',
        id: 'today',
        name: 'Hari ini',
        type: 'PERIODIC',
        range: 'TODAY',
        period: 'hour',
        interval: 1,
        is_default: true,
      },
    },
    dashboard: structuredClone(EXAMPLE_COMPONENTS),
  };
}
