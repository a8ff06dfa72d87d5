// A dashboard component (card) as stored in conf_dashboard.dashboard (spec 02 section 3 "Component"), with the rules
// of section 5: key, refresh, the queries its kind offers, the map's position, and the minimum size.
import { z } from 'zod';
import { T } from '../../text/id.js';
import {
  CARD_TYPES,
  CARD_TYPE_CODES,
  GRID_COLUMNS,
  storedHeight,
  type CardTypeCode,
  type CardTypeInfo,
} from '../../catalogue/cardTypes.js';
import { queryOption } from '../../catalogue/queries.js';
import { UNIT_CODES } from '../../catalogue/units.js';
import {
  CHART_TOOLTIP_KINDS,
  COMPONENT_KEY_MAX,
  COMPONENT_KEY_PATTERN,
  DECIMALS_MAX,
  DECIMALS_MIN,
  REFRESH_MIN_MS,
} from '../../catalogue/limits.js';
import { CardFilters } from './filters.js';
import { QueryEntity, TagList } from './query.js';
import { VariableMap } from './variables.js';

const t = T.dashboards;

/** "Component key required … No spaces", at most 30 characters, a letter first (it is a path segment). */
export const ComponentKey = z
  .string({ error: t.component.keyRequired })
  .min(1, t.component.keyRequired)
  .refine((k) => !/\s/.test(k), t.component.keyNoSpaces)
  .refine((k) => k.length <= COMPONENT_KEY_MAX, T.common.max(COMPONENT_KEY_MAX))
  .refine((k) => /\s/.test(k) || k.length > COMPONENT_KEY_MAX || COMPONENT_KEY_PATTERN.test(k), t.component.keyPattern);

/** "Refresh rate is required … It must be 0 (auto) or at least 500 ms." */
export const RefreshRate = z
  .number({ error: t.form.refreshRequired })
  .int(t.form.refreshMin)
  .refine((ms) => ms === 0 || ms >= REFRESH_MIN_MS, t.form.refreshMin);

/** "Decimals are 0 to 5 (default 2)." */
export const Decimals = z
  .number({ error: t.form.decimalRange })
  .int(t.form.decimalRange)
  .min(DECIMALS_MIN, t.form.decimalRange)
  .max(DECIMALS_MAX, t.form.decimalRange);

/** "Graph y-axis min and max fall back to 'auto' unless numeric." */
const AxisBound = z.unknown().transform((v): number | 'auto' => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 'auto';
});

const str = z.string().optional();
const bool = z.boolean().optional();
const num = z.number().optional();

/** The view fields section 3 lists; unknown fields are kept (the manual JSON editor may add presentation fields). */
export const ComponentView = z.looseObject({
  decimal: Decimals.optional(),
  type: str,
  visTags: bool,
  title: str,
  unit: str,
  unit_front: bool,
  pict: str,
  xlabel: str,
  ylabel: str,
  is_stack: bool,
  has_dot: bool,
  graph_unit: str,
  graph_colors: z.array(z.string()).optional(),
  graph_from_zero: bool,
  graph_yaxis_min: AxisBound.optional(),
  graph_yaxis_max: AxisBound.optional(),
  reference_line_value: num,
  reference_line_label: str,
  with_summary: bool,
  is_dashed: bool,
  devices: z.array(z.union([z.string(), z.number()])).optional(),
  button_label: str,
  full_number: bool,
  min: num,
  max: num,
  locale: str,
  date_format: str,
  time_format: str,
  axis_x: str,
  axis_y: str,
  unit_x: str,
  unit_y: str,
  color_dot: str,
  // chart cards: the tooltip kind, and which series of a fuel chart is the tank fill
  tooltip: z.enum(CHART_TOOLTIP_KINDS).optional(),
  fill_key: str,
  // crack cards: one entry per crack; strain cards: one per gauge
  crack_labels: z.array(z.string()).optional(),
  crack_lengths: z.array(z.number()).optional(),
  /** the unit of crack_lengths (a crack's length is not measured in its opening's unit: 120 cm long, 0.4 mm wide) */
  crack_length_unit: str,
  crack_colors: z.array(z.string()).optional(),
  strain_labels: z.array(z.string()).optional(),
  strain_curves: z.array(z.string()).optional(),
  strain_colors: z.array(z.string()).optional(),
});
export type ComponentView = z.output<typeof ComponentView>;

/** The queries a card stores, by role. */
export const MODEL_QUERIES = ['value', 'output', 'latitude', 'longitude', 'status'] as const;

export const ComponentModel = z.looseObject({
  value: QueryEntity.optional(),
  output: QueryEntity.optional(),
  latitude: QueryEntity.optional(),
  longitude: QueryEntity.optional(),
  status: QueryEntity.optional(),
  tags: TagList.optional(),
  filter: CardFilters.optional(),
  /** keys of the selectors and variables whose change reloads this card */
  affected_by: z.array(z.string()).optional(),
  /** command target and command-card properties */
  config: z.looseObject({}).optional(),
  map_type: str,
  image_url: str,
});
export type ComponentModel = z.output<typeof ComponentModel>;

const position = z.number({ error: T.common.required }).int().min(0);

export const Component = z
  .strictObject({
    key: ComponentKey,
    cat: z.enum(CARD_TYPE_CODES as [CardTypeCode, ...CardTypeCode[]], { error: t.component.unknownType }),
    x: position,
    y: position,
    w: z.number({ error: T.common.required }).int().min(1),
    // stored heights of 2 or more grid rows are halved, so halves occur
    h: z.number({ error: T.common.required }).min(1).multipleOf(0.5),
    config: z.strictObject({ refresh: RefreshRate.optional() }).optional(),
    var: VariableMap.optional(),
    model: ComponentModel.optional(),
    view: ComponentView.optional(),
  })
  .superRefine((c, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const info: CardTypeInfo = CARD_TYPES[c.cat];
    for (const role of MODEL_QUERIES) {
      const q = c.model?.[role];
      if (!q?.query) continue;
      if (queryOption(info.kind, q.query)?.queryType !== q.queryType)
        issue(['model', role, 'query'], t.component.queryNotOffered);
    }
    if (c.cat === 'MAP_CARD') {
      if (!c.model?.latitude) issue(['model', 'latitude'], t.component.latitudeRequired);
      if (!c.model?.longitude) issue(['model', 'longitude'], t.component.longitudeRequired);
    }
    if (
      c.cat === 'SINGLE_VALUE_CARD' &&
      c.view?.type !== undefined &&
      !(UNIT_CODES as readonly string[]).includes(c.view.type)
    )
      issue(['view', 'type'], T.common.invalidInput);
    const { minW, minH, fixedW, fixedH } = info.size;
    const okW = fixedW !== undefined ? c.w === fixedW : c.w >= minW;
    const okH = fixedH !== undefined ? c.h === storedHeight(c.cat, fixedH) : c.h >= storedHeight(c.cat, minH);
    if (!okW) issue(['w'], t.component.tooSmall(fixedW ?? minW, fixedH ?? minH));
    if (!okH) issue(['h'], t.component.tooSmall(fixedW ?? minW, fixedH ?? minH));
    if (c.x + c.w > GRID_COLUMNS) issue(['x'], t.component.outsideGrid);
  });
export type Component = z.output<typeof Component>;
export type ComponentInput = z.input<typeof Component>;
