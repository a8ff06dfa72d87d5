// Chart draws, one at a time (issue #9 performance): Plotly is fetched once, after every card of the dashboard has
// drawn its first frame (common/firstFrames.ts), and each chart's draw runs as its own task, the latest draw of a
// chart replacing one still waiting. So a push reaching eleven charts never makes one long frame, values never wait
// behind Plotly, and a chart pushed to twice before its turn draws once. Charts in view (IntersectionObserver) draw
// first, the others after them (not later: a chart catching up as it scrolls in would redraw under the pointer).
import { afterPaint } from '../common/afterPaint.js';
import { firstFramesDrawn } from '../common/firstFrames.js';
import type { PlotlyApi } from './plotly.js';

/** Plotly with the locale name it registered (id-ID month and day names). */
export interface ChartLibrary {
  plotly: PlotlyApi;
  locale: string;
}

export type ChartDraw = (lib: ChartLibrary) => void;

/** Draws run back to back within this budget; then the browser gets the thread (a frame, input) before the next. */
const BUDGET_MS = 8;
/**
 * First draws of charts (a dashboard opening) share a larger budget: each yield lets the browser lay out and paint
 * the 30-card page before the next chart, which costs about as much as a draw; three or four charts per task instead
 * (50 → 100 ms: every chart drawn ~1.32 → ~1.14 s, median of ten navigations, the main thread blocked as long in all).
 * Live pushes keep the small budget.
 */
const FIRST_BUDGET_MS = 100;
const drawnOnce = new WeakSet<Element>();
/** Charts this close to the viewport count as visible (drawn just before they scroll in). */
const VISIBLE_MARGIN = '200px';

const waiting = new Map<Element, ChartDraw>();
const visible = new WeakMap<Element, boolean>();
let observer: IntersectionObserver | null | undefined;
let lib: ChartLibrary | undefined;
let loading: Promise<void> | undefined;
let pumping = false;

/**
 * User timings (DevTools' Performance panel, e2e/cards-perf.spec.ts): Plotly's evaluation and each chart's first draw,
 * so a measurement can tell the charts' own cost from the machine's noise. Redraws are not recorded: the entries are
 * kept for the page's life, and live pushes would add them without end.
 */
export const CHART_TIMINGS = { library: 'sentra:chart-library', firstDraw: 'sentra:chart-first-draw' } as const;
const timed = (name: string, start: number) => {
  try {
    performance.measure(name, { start, end: performance.now() });
  } catch {
    // no User Timing level 3 (old browsers, some test environments): nothing to record
  }
};

function observerOf(): IntersectionObserver | null {
  if (observer === undefined) {
    observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => {
              for (const e of entries) visible.set(e.target, e.isIntersecting);
              pump();
            },
            { rootMargin: VISIBLE_MARGIN },
          )
        : null;
  }
  return observer;
}

/** Without IntersectionObserver (tests) every chart is in view; with it, a chart waits for its first report. */
const isVisible = (el: Element) => (observer === null ? true : visible.get(el) === true);
const isOutOfView = (el: Element) => observer !== null && visible.get(el) === false;
const due = (el: Element) => isVisible(el) || isOutOfView(el);
const next = (): [Element, ChartDraw] | undefined => {
  for (const entry of waiting) if (isVisible(entry[0])) return entry;
  for (const entry of waiting) if (isOutOfView(entry[0])) return entry;
  return undefined;
};

function load(): void {
  loading ??= (async () => {
    await firstFramesDrawn();
    // after the frame that drew the values: Plotly's parse and start-up then run with nothing urgent left
    await new Promise<void>((resolve) => void afterPaint(resolve));
    try {
      const started = performance.now();
      const m = await import('./plotly.js');
      lib = { plotly: m.plotly(), locale: m.PLOTLY_LOCALE };
      timed(CHART_TIMINGS.library, started);
      pump();
    } catch (err) {
      // a failed chunk (a deploy replaced it, the network dropped): the next draw request tries again
      console.error('chart library failed to load', err);
      loading = undefined;
    }
  })();
}

function pump(): void {
  if (pumping || !lib || ![...waiting.keys()].some(due)) return;
  pumping = true;
  // a dashboard opened later (Plotly loaded already) still shows its values before its charts
  void firstFramesDrawn().then(() => setTimeout(run, 0));
}

function run(): void {
  pumping = false;
  const started = performance.now();
  for (let job = next(); job; job = next()) {
    const [el, draw] = job;
    waiting.delete(el);
    const first = !drawnOnce.has(el);
    drawnOnce.add(el);
    const drawStarted = performance.now();
    try {
      draw(lib!);
    } catch (err) {
      console.error('chart draw failed', err);
    }
    if (first) timed(CHART_TIMINGS.firstDraw, drawStarted);
    if (performance.now() - started > (first ? FIRST_BUDGET_MS : BUDGET_MS)) break;
  }
  pump();
}

/**
 * The built Plotly chunk's file (the build writes it over this placeholder, vite.config.ts `plotlyChunkName`; the
 * development server leaves it, and nothing is preloaded there).
 */
const PLOTLY_CHUNK = '__SENTRA_PLOTLY_CHUNK_FILE__';
let preloaded = false;

/**
 * A dashboard view opening: the browser fetches and compiles Plotly's chunk (a module preload: not evaluated) while
 * the view waits for its dashboard and first frames, so only Plotly's evaluation is left once the values are drawn.
 * Evaluating it early was measured and dropped: one 0.3–0.8 s task landing while the first frames arrived. `chunk`:
 * the built chunk's file (tests give their own).
 */
export function preloadChartLibrary(
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
  chunk = PLOTLY_CHUNK,
): void {
  if (preloaded || !doc || chunk.startsWith('__')) return;
  preloaded = true;
  const link = doc.createElement('link');
  link.rel = 'modulepreload';
  link.setAttribute('fetchpriority', 'low');
  link.href = `${import.meta.env.BASE_URL}${chunk}`;
  doc.head.appendChild(link);
}

/** Asks for `draw` to run with Plotly when its turn comes (charts in view first); replaces a draw still waiting. */
export function requestChartDraw(el: Element, draw: ChartDraw): void {
  observerOf()?.observe(el); // observing twice is a no-op: a chart stays observed until it leaves
  waiting.delete(el); // a renewed request goes to the back: the charts that waited longer draw first
  waiting.set(el, draw);
  if (lib) pump();
  else load();
}

/** The chart leaves: its waiting draw is dropped and Plotly's state on the element freed. */
export function releaseChart(el: Element): void {
  waiting.delete(el);
  observer?.unobserve(el);
  visible.delete(el);
  lib?.plotly.purge(el as HTMLElement);
}
