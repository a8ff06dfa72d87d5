// The chart card types: Plotly views (Plotly loaded by chartDraws.ts when a chart draws) for line, area, bar and pie
// with their monitoring and smart variants, and the text chart without a chart library. View options are
// ComponentView's (the tooltip kind `tooltip` and the fuel chart's `fill_key` among them) plus `labels`, display
// names of the series keys that only a hand-written view sets.
import { z } from 'zod';
import { DEFAULT_CARD_LOCALE, type CardTypeCode } from '@sentra/contracts';
import { lazyView } from '../common/lazyView.js';
import { defineCard, viewSchema } from '../common/definition.js';
import type { ViewFieldSpec } from '../common/viewFieldKit.js';
import { BAR_FIELDS, LINE_FIELDS, PIE_FIELDS, TEXT_CHART_FIELDS } from './chart.fields.js';

export const chartViewSchema = viewSchema({ labels: z.record(z.string(), z.string()).optional() });

const plotView = lazyView('ChartView');
const defaults = { locale: DEFAULT_CARD_LOCALE };
const chart = (type: CardTypeCode, label: string, fields: readonly ViewFieldSpec[]) =>
  defineCard(type, { label, config: chartViewSchema, defaults, fields, size: { w: 2, h: 4 }, view: plotView });

export const chartCard = chart('CHART_CARD', 'Chart', LINE_FIELDS);
export const lineChartCard = chart('LINE_CHART_CARD', 'Line chart', LINE_FIELDS);
export const lineMonitoringChartCard = chart('LINE_MONITORING_CHART_CARD', 'Line monitoring chart', LINE_FIELDS);
export const lineSmartChartCard = chart('LINE_SMART_CHART_CARD', 'Line smart chart', LINE_FIELDS);
export const areaChartCard = chart('AREA_CHART_CARD', 'Area chart', LINE_FIELDS);
export const areaMonitoringChartCard = chart('AREA_MONITORING_CHART_CARD', 'Area monitoring chart', LINE_FIELDS);
export const barChartCard = chart('BAR_CHART_CARD', 'Bar chart', BAR_FIELDS);
export const barMonitoringChartCard = chart('BAR_MONITORING_CHART_CARD', 'Bar monitoring chart', BAR_FIELDS);
export const pieChartCard = chart('PIE_CHART_CARD', 'Pie chart', PIE_FIELDS);
export const pieMonitoringChartCard = chart('PIE_MONITORING_CHART_CARD', 'Pie monitoring chart', PIE_FIELDS);
export const textChartCard = defineCard('TEXT_CHART_CARD', {
  label: 'Text chart',
  config: chartViewSchema,
  defaults,
  fields: TEXT_CHART_FIELDS,
  size: { w: 2, h: 4 },
  view: lazyView('TextChartView'),
});
