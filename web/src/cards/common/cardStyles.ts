// The chrome every card draws (frame, title line, body, loading spinner, main value, "updated" line) as one static
// stylesheet written from the theme once, instead of MUI components with `sx`: a 30-card dashboard otherwise renders
// ~150 styled components whose styles emotion serializes, hashes and (per card height and font size) inserts while
// the first frames are drawn. Dynamic values (a card's height, a value's font size) go in `style`.
import { alpha, lighten } from '@mui/material/styles';
import { theme } from '../../ui/theme.js';
import { GRID_BREAKPOINTS } from '@sentra/contracts';

/** The class names of the card chrome. */
export const CARD_CLASS = {
  frame: 'sentra-card',
  header: 'sentra-card-header',
  title: 'sentra-card-title',
  body: 'sentra-card-body',
  framedBody: 'sentra-card-body-framed',
  loading: 'sentra-card-loading',
  spinner: 'sentra-card-spinner',
  value: 'sentra-card-value',
  caption: 'sentra-card-caption',
  /** a full-height row, its items centred (an icon beside a value) */
  row: 'sentra-card-row',
  /** the row's item taking the space left */
  grow: 'sentra-card-grow',
  /** a full-height column (a list above its pager) */
  column: 'sentra-card-column',
  /** a list's scrolling box and its table (a small table, sticky header) */
  tableBox: 'sentra-card-table-box',
  table: 'sentra-card-table',
  /** secondary text (an empty list) */
  muted: 'sentra-card-muted',
  /** an inactive device's status in a list */
  inactive: 'sentra-card-inactive',
  /** the three phases: a column of rows (bar, label, value) */
  phases: 'sentra-card-phases',
  phase: 'sentra-card-phase',
  phaseBar: 'sentra-card-phase-bar',
  phaseLabel: 'sentra-card-phase-label',
  /** a chart's drawing box, and the text over it when there is nothing to draw */
  chartBox: 'sentra-card-chart-box',
  chartEmpty: 'sentra-card-chart-empty',
  /** a chart's summary strip: per series a dot and label, then its last value or min/avg/max */
  summary: 'sentra-card-summary',
  summaryItem: 'sentra-card-summary-item',
  summaryDot: 'sentra-card-summary-dot',
  summaryLast: 'sentra-card-summary-last',
} as const;

const ellipsis = 'overflow:hidden;text-overflow:ellipsis;white-space:nowrap;';
/** a theme type variant's face, size, line height and spacing (what a Typography of that variant sets) */
const type = (v: {
  fontFamily?: string;
  fontSize?: string | number;
  lineHeight?: string | number;
  letterSpacing?: string | number;
}) =>
  `font-family:${v.fontFamily};font-size:${v.fontSize};line-height:${v.lineHeight};letter-spacing:${v.letterSpacing};`;

/** The stylesheet's text: every colour, radius and type size comes from the console's theme. */
export function cardStylesheet(t = theme): string {
  const c = CARD_CLASS;
  const { subtitle2, caption, body2 } = t.typography;
  // MUI's table cell line: the divider made opaque (lighten 0.88)
  const rowLine = lighten(alpha(t.palette.divider, 1), 0.88);
  return [
    `.${c.frame}{display:flex;flex-direction:column;overflow:hidden;contain:content;box-sizing:border-box;background-color:${t.palette.background.paper};color:${t.palette.text.primary};border:1px solid ${t.palette.divider};border-radius:${Number(t.shape.borderRadius) * 2}px}`,
    `.${c.header}{display:flex;flex-direction:row;align-items:center;height:34px;flex-shrink:0;min-width:0;padding:0 ${t.spacing(1.5)}}`,
    `.${c.title}{margin:0;flex:1;min-width:0;${type(subtitle2)}font-weight:700;${ellipsis}}`,
    `.${c.body}{flex:1;min-height:0;position:relative}`,
    `.${c.framedBody}{padding:0 ${t.spacing(1.5)} ${t.spacing(1)}}`,
    `.${c.loading}{height:100%;display:flex;align-items:center;justify-content:center}`,
    `.${c.spinner}{width:20px;height:20px;box-sizing:border-box;border-radius:50%;border:2.5px solid ${t.palette.primary.main};border-right-color:transparent;animation:sentra-card-spin .8s linear infinite}`,
    `@keyframes sentra-card-spin{to{transform:rotate(360deg)}}`,
    `.${c.value}{font-family:${t.typography.fontFamily};font-weight:700;line-height:1.1;font-variant-numeric:tabular-nums;${ellipsis}}`,
    `.${c.caption}{display:block;${type(caption)}color:${t.palette.text.secondary};${ellipsis}}`,
    `.${c.row}{height:100%;display:flex;flex-direction:row;align-items:center;gap:${t.spacing(1.5)};min-width:0}`,
    `.${c.grow}{flex:1;min-width:0}`,
    `.${c.column}{height:100%;display:flex;flex-direction:column;min-height:0}`,
    `.${c.tableBox}{flex:1;min-height:0;overflow:auto}`,
    `.${c.table}{width:100%;border-collapse:separate;border-spacing:0;${type(body2)}}`,
    `.${c.table} th,.${c.table} td{padding:6px 16px;text-align:left;white-space:nowrap;font-variant-numeric:tabular-nums;border-bottom:1px solid ${rowLine}}`,
    `.${c.table} th{font-weight:700;position:sticky;top:0;z-index:2;background-color:${t.palette.background.paper}}`,
    `.${c.table} tbody tr:hover{background-color:${t.palette.action.hover}}`,
    // a phone-wide card (one column below sm): narrower cell padding so a list's value column stays in view
    `@media (max-width:${GRID_BREAKPOINTS.sm - 1}px){.${c.table} th,.${c.table} td{padding:6px 8px}}`,
    `.${c.muted}{color:${t.palette.text.secondary}}`,
    `.${c.inactive}{color:${t.palette.text.disabled}}`,
    `.${c.phases}{height:100%;display:flex;flex-direction:column;justify-content:space-around}`,
    `.${c.phase}{display:flex;flex-direction:row;align-items:center;gap:${t.spacing(1.5)};min-width:0}`,
    `.${c.phaseBar}{width:10px;border-radius:${t.shape.borderRadius}px;flex-shrink:0}`,
    `.${c.phaseLabel}{width:56px;flex-shrink:0;${type(body2)}color:${t.palette.text.secondary}}`,
    `.${c.chartBox}{flex:1;min-height:0;position:relative}`,
    `.${c.chartEmpty}{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;pointer-events:none;${type(body2)}color:${t.palette.text.secondary}}`,
    `.${c.summary}{display:flex;flex-direction:row;gap:${t.spacing(2)};overflow-x:auto;flex-shrink:0;padding-bottom:${t.spacing(0.5)}}`,
    `.${c.summaryItem}{min-width:0}`,
    `.${c.summaryItem}>div:first-child{display:flex;flex-direction:row;align-items:center;gap:${t.spacing(0.5)}}`,
    `.${c.summaryDot}{width:8px;height:8px;border-radius:50%;flex-shrink:0}`,
    `.${c.summaryLast}{font-family:${t.typography.fontFamily};font-weight:700;font-size:18px;line-height:1.5;font-variant-numeric:tabular-nums;${ellipsis}}`,
  ].join('\n');
}

const STYLE_ID = 'sentra-card-styles';

/** Puts the stylesheet in the document once (the first card drawn); later calls only look it up. */
export function ensureCardStyles(
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
): void {
  if (!doc || doc.getElementById(STYLE_ID)) return;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = cardStylesheet();
  doc.head.appendChild(style);
}
