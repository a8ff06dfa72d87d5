// What the component editor's tests share: a reducer run over events, and the device query most of them store.
import type { QueryEntityInput } from '@sentra/contracts';
import {
  componentEditorReducer,
  newComponentEditor,
  type ComponentEditorEvent,
  type ComponentEditorState,
} from './componentEditor.js';

/** The editor after `events`, from a new one (or `start`). */
export const runEditor = (events: ComponentEditorEvent[], start: ComponentEditorState = newComponentEditor()) =>
  events.reduce(componentEditorReducer, start);

/** LATEST of one device's meter energy: the query the cascade of device, sensor, config and param ends in. */
export const LATEST_ENERGY: QueryEntityInput = {
  query: 'LATEST',
  queryType: 'device',
  device_id: 'dev1',
  sensor: 'pm',
  config: 'meter',
  param: 'energy',
};

/** AVG of one device's meter voltage, phase r: a graph query with a subparam and its label. */
export const AVG_VOLTAGE: Extract<QueryEntityInput, { queryType: 'graph' }> = {
  query: 'AVG',
  queryType: 'graph',
  device_id: 'dev1',
  sensor: 'pm',
  config: 'meter',
  param: 'voltage',
  subparam: ['r'],
  subparam_label: ['fasa r'],
};
