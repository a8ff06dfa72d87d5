// The chart card types: Plotly views (Plotly loaded by chartDraws.ts when a chart draws) for line, area, bar and pie
// with their monitoring and smart variants, and the text chart without a chart library. View options are
// ComponentView's (the tooltip kind `tooltip` and the fuel chart's `fill_key` among them) plus `labels`, display
// names of the series keys that only a hand-written view sets.
import { z } from 'zod';
import { DEFAULT_CARD_LOCALE, type CardTypeCode } from '@sentra/contracts';
import { lazyView } from '../common/lazyView.js';
import { defineCard, viewSchema } from '../common/definition.js';

export const chartViewSchema = viewSchema({ labels: z.record(z.string(), z.string()).optional() });

const plotView = lazyView('ChartView');
const defaults = { locale: DEFAULT_CARD_LOCALE };
const chart = (type: CardTypeCode, label: string) => defineCard(type, { label, config: chartViewSchema, defaults, size: { w: 2, h: 4 }, view: plotView });

export const chartCard = chart('CHART_CARD', 'Chart');
export const lineChartCard = chart('LINE_CHART_CARD', 'Line chart');
export const lineMonitoringChartCard = chart('LINE_MONITORING_CHART_CARD', 'Line monitoring chart');
export const lineSmartChartCard = chart('LINE_SMART_CHART_CARD', 'Line smart chart');
export const areaChartCard = chart('AREA_CHART_CARD', 'Area chart');
export const areaMonitoringChartCard = chart('AREA_MONITORING_CHART_CARD', 'Area monitoring chart');
export const barChartCard = chart('BAR_CHART_CARD', 'Bar chart');
export const barMonitoringChartCard = chart('BAR_MONITORING_CHART_CARD', 'Bar monitoring chart');
export const pieChartCard = chart('PIE_CHART_CARD', 'Pie chart');
export const pieMonitoringChartCard = chart('PIE_MONITORING_CHART_CARD', 'Pie monitoring chart');
export const textChartCard = defineCard('TEXT_CHART_CARD', { label: 'Text chart', config: chartViewSchema, defaults, size: { w: 2, h: 4 }, view: lazyView('TextChartView') });
