// Query types, query functions and the options each card kind offers under group headings (spec 02 section 3
// "Query types", "Query function values by card kind"; section 2 "Card data-query editor").
export const QUERY_TYPES = [
  'device_id',
  'device',
  'graph',
  'three_phase',
  'device_no_id',
  'tags',
  'none',
  'condition',
  'condition_bool',
] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

/** What each query type asks of the editor, in the order its selectors appear. */
export const QUERY_TYPE_FIELDS: Record<QueryType, readonly QueryField[]> = {
  device_id: ['device_id'],
  device: ['device_id', 'sensor', 'config', 'param', 'subparam'],
  graph: ['device_id', 'sensor', 'config', 'param', 'subparams'],
  three_phase: ['device_id', 'sensor', 'config', 'param', 'phases'],
  device_no_id: ['sensor', 'config', 'param', 'subparam'],
  tags: ['tags'],
  none: [],
  condition: ['condition'],
  condition_bool: ['condition', 'true_condition', 'false_condition'],
};
export type QueryField =
  | 'device_id'
  | 'sensor'
  | 'config'
  | 'param'
  | 'subparam'
  | 'subparams'
  | 'phases'
  | 'tags'
  | 'condition'
  | 'true_condition'
  | 'false_condition';

/** Group headings of the Query selector; their words are `T.dashboards.query.groups`. */
export const QUERY_GROUPS = ['data', 'aggregate', 'deviceInfo', 'condition'] as const;
export type QueryGroup = (typeof QUERY_GROUPS)[number];

/** Every query function once, with the label the Query selector shows: the spec's label where it gives one, else the code. */
export const QUERY_FUNCTIONS = {
  LATEST: 'LATEST',
  ONLINE: 'Status Online',
  TOTAL_DEVICE: 'Total Device',
  APP_ONLINE: 'Total Device Online',
  AVG: 'AVG',
  COUNT: 'COUNT',
  LAST: 'LAST',
  MAX: 'MAX',
  MIN: 'MIN',
  SAMPLE: 'SAMPLE',
  SUM: 'SUM',
  USAGE: 'USAGE',
  DEVICE_CATEGORY: 'DEVICE_CATEGORY',
  DEVICE_ID: 'DEVICE_ID',
  DEVICE_TYPE: 'DEVICE_TYPE',
  FIRMWARE: 'FIRMWARE',
  LABEL: 'LABEL',
  LATEST_UPDATE: 'LATEST_UPDATE',
  LATITUDE: 'LATITUDE',
  LONGITUDE: 'LONGITUDE',
  SN: 'SN',
  BOOL: 'Boolean',
  FORMAT: 'FORMAT',
  IFELSE: 'If/else',
  MATH: 'MATH',
} as const;
export type QueryFunction = keyof typeof QUERY_FUNCTIONS;

/**
 * Card kinds as far as queries go: each card type names one (see cardTypes.ts). A kind decides the Query options below,
 * the editor's query rows (web `screens/dashboards/editor/querySlots.ts`) and the evaluation (server
 * `modules/cards/cardKinds.ts`): one entry per side. The coordinate, three-value and command kinds query like single
 * values but are evaluated (and commanded) their own way.
 */
export const QUERY_KINDS = [
  'single',
  'coordinate',
  'threeValue',
  'command',
  'tagCommand',
  'threePhase',
  'list',
  'map',
  'title',
  'chart',
  'none',
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export interface QueryOption {
  query: QueryFunction;
  queryType: QueryType;
}
export interface QueryOptionGroup {
  group: QueryGroup;
  options: readonly QueryOption[];
}

const as = (queryType: QueryType, ...queries: QueryFunction[]): QueryOption[] =>
  queries.map((query) => ({ query, queryType }));

const SERIES_AGGREGATES: QueryFunction[] = ['AVG', 'COUNT', 'MAX', 'MIN', 'SUM', 'USAGE'];
/** "All cards except three-phase also get BOOL, FORMAT, IFELSE (condition_bool type) and MATH." */
const CONDITIONS: QueryOptionGroup = {
  group: 'condition',
  options: [...as('condition', 'BOOL', 'FORMAT'), ...as('condition_bool', 'IFELSE'), ...as('condition', 'MATH')],
};

/** A single value's options, also the coordinate, three-value and command cards'. */
const SINGLE: readonly QueryOptionGroup[] = [
  {
    group: 'data',
    options: [...as('device', 'LATEST'), ...as('device_id', 'ONLINE'), ...as('tags', 'TOTAL_DEVICE', 'APP_ONLINE')],
  },
  { group: 'aggregate', options: as('device', ...SERIES_AGGREGATES) },
  {
    group: 'deviceInfo',
    options: as('device_id', 'DEVICE_CATEGORY', 'LABEL', 'DEVICE_TYPE', 'FIRMWARE', 'LATITUDE', 'LONGITUDE', 'SN'),
  },
  CONDITIONS,
];

/**
 * The Query selector's options per card kind. List and map cards read every device of their tags, so their series
 * queries name no device (`device_no_id`) and their device facts need no selection (`none`).
 */
export const QUERY_OPTIONS: Record<QueryKind, readonly QueryOptionGroup[]> = {
  single: SINGLE,
  coordinate: SINGLE,
  threeValue: SINGLE,
  command: SINGLE,
  tagCommand: SINGLE,
  threePhase: [{ group: 'data', options: as('three_phase', 'LATEST') }],
  list: [
    { group: 'data', options: [...as('device_no_id', 'LATEST'), ...as('none', 'ONLINE')] },
    { group: 'aggregate', options: as('device_no_id', ...SERIES_AGGREGATES) },
    {
      group: 'deviceInfo',
      options: as(
        'none',
        'DEVICE_CATEGORY',
        'FIRMWARE',
        'DEVICE_ID',
        'LABEL',
        'LATEST_UPDATE',
        'LATITUDE',
        'LONGITUDE',
        'SN',
        'DEVICE_TYPE',
      ),
    },
    CONDITIONS,
  ],
  // "The map card lists LATEST first, then LATITUDE and LONGITUDE": the position is the map's data.
  map: [
    { group: 'data', options: [...as('device_no_id', 'LATEST'), ...as('none', 'LATITUDE', 'LONGITUDE', 'ONLINE')] },
    { group: 'aggregate', options: as('device_no_id', ...SERIES_AGGREGATES) },
    {
      group: 'deviceInfo',
      options: as('none', 'DEVICE_CATEGORY', 'FIRMWARE', 'DEVICE_ID', 'LABEL', 'LATEST_UPDATE', 'SN', 'DEVICE_TYPE'),
    },
    CONDITIONS,
  ],
  title: [
    {
      group: 'deviceInfo',
      options: as('device_id', 'DEVICE_CATEGORY', 'FIRMWARE', 'DEVICE_ID', 'LABEL', 'SN', 'DEVICE_TYPE'),
    },
    CONDITIONS,
  ],
  chart: [
    { group: 'aggregate', options: as('graph', 'AVG', 'COUNT', 'LAST', 'MAX', 'MIN', 'SAMPLE', 'SUM', 'USAGE') },
    CONDITIONS,
  ],
  none: [],
};

/** The option of `query` a card kind offers, if it offers it. */
export function queryOption(kind: QueryKind, query: string): QueryOption | undefined {
  for (const group of QUERY_OPTIONS[kind]) {
    const found = group.options.find((o) => o.query === query);
    if (found) return found;
  }
  return undefined;
}

/** Query types whose expression is written by hand; IFELSE also picks a Number/String result. */
export const EXPRESSION_QUERY_TYPES: readonly QueryType[] = ['condition', 'condition_bool'];

/** FORMAT and MATH write a Keluaran (output) expression; BOOL and IFELSE a Condition. */
export const EXPRESSION_FIELD: Partial<Record<QueryFunction, 'output' | 'condition'>> = {
  FORMAT: 'output',
  MATH: 'output',
  BOOL: 'condition',
  IFELSE: 'condition',
};

/** The subparam placeholder: "means no subparam and removes it". */
export const NO_SUBPARAM = '_no_subparam_';

/**
 * Device states in a card query (not in the spec, docs/card-queries.md "Device states"): the sensor `_state_` names
 * the device's current states instead of a telemetry series, the param is the state key (Tasmota's `POWER`), config
 * is `state`. A placeholder in the spec's own style (`_no_subparam_`), so the editor's cascade picks it unchanged.
 */
export const STATE_SENSOR = '_state_';
export const STATE_CONFIG = 'state';
