// The chart cards' Visualisasi fields: line and area (dots, stacks), bar (stacks), pie, and the text chart.
import { CHART_TOOLTIP_KINDS, T } from '@sentra/contracts';
import { DATE_FORMAT, LOCALE, field, title, type ViewFieldName } from '../common/viewFieldKit.js';

const v = T.dashboards.view;
const axis = (name: ViewFieldName) => field(name, 'axisBound', { helper: v.axisHelp });

const GRAPH_COMMON = [
  title(),
  field('xlabel', 'text'),
  field('ylabel', 'text'),
  field('graph_unit', 'text'),
  field('graph_colors', 'colors'),
  field('graph_from_zero', 'switch'),
  axis('graph_yaxis_min'),
  axis('graph_yaxis_max'),
  field('reference_line_value', 'number'),
  field('reference_line_label', 'text'),
  field('with_summary', 'switch'),
  DATE_FORMAT,
  LOCALE,
  // "Chart tooltips" (spec 2): the kind, and for the fuel-station tooltip which series is the tank fill
  field('tooltip', 'select', {
    options: CHART_TOOLTIP_KINDS.map((kind) => ({ value: kind, label: v.tooltipKinds[kind] })),
  }),
  field('fill_key', 'series', { helper: v.fillKeyHelp }),
];
export const LINE_FIELDS = [
  ...GRAPH_COMMON.slice(0, 5),
  field('is_stack', 'switch'),
  field('has_dot', 'switch'),
  field('color_dot', 'text', { helper: v.colorDotHelp }),
  field('is_dashed', 'switch'),
  ...GRAPH_COMMON.slice(5),
];
export const BAR_FIELDS = [...GRAPH_COMMON.slice(0, 5), field('is_stack', 'switch'), ...GRAPH_COMMON.slice(5)];
export const PIE_FIELDS = [
  title(),
  field('graph_unit', 'text'),
  field('graph_colors', 'colors'),
  field('with_summary', 'switch'),
  LOCALE,
];
export const TEXT_CHART_FIELDS = [title(), field('graph_unit', 'text'), DATE_FORMAT, LOCALE];
