// The chart draw queue: Plotly loaded once the dashboard's values are drawn, one waiting draw per chart (the latest),
// the thread given back between slow draws, charts in view first.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => ({ count: 0, purged: [] as unknown[], log: [] as string[] }));
vi.mock('./plotly.js', () => ({
  plotly: () => {
    loaded.count++;
    loaded.log.push('plotly loaded');
    return { purge: (el: unknown) => loaded.purged.push(el) };
  },
  PLOTLY_LOCALE: 'id',
}));

const values = vi.hoisted(() => ({ drawn: Promise.resolve() }));
vi.mock('../common/firstFrames.js', () => ({
  firstFramesDrawn: () => {
    loaded.log.push('values asked');
    return values.drawn;
  },
}));

// the real afterPaint, logged: the loader's wait for a paint is the step that follows the values being drawn
vi.mock('../common/afterPaint.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../common/afterPaint.js')>();
  return {
    afterPaint: (fn: () => void) => {
      loaded.log.push('after paint asked');
      return real.afterPaint(fn);
    },
  };
});

type Draws = typeof import('./chartDraws.js');
let draws: Draws;
const el = (name: string) => ({ name }) as unknown as Element;
const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // a slow draw
  }
};

beforeEach(async () => {
  vi.resetModules();
  loaded.count = 0;
  loaded.purged.length = 0;
  loaded.log.length = 0;
  values.drawn = Promise.resolve();
  draws = await import('./chartDraws.js');
});
afterEach(() => vi.unstubAllGlobals());

describe('chart draws', () => {
  it('load Plotly once and draw every waiting chart with it and its locale', async () => {
    const seen: string[] = [];
    for (const name of ['a', 'b', 'c']) draws.requestChartDraw(el(name), (lib) => seen.push(`${name}:${lib.locale}`));
    await vi.waitFor(() => expect(seen).toEqual(['a:id', 'b:id', 'c:id']));
    expect(loaded.count).toBe(1);
  });

  it('wait until every card shows its first frame before loading Plotly and drawing', async () => {
    let release!: () => void;
    values.drawn = new Promise((r) => (release = r));
    const seen: string[] = [];
    draws.requestChartDraw(el('a'), () => seen.push('a'));
    // the loader asked whether the values are drawn: from here only their drawing lets it go on
    await vi.waitFor(() => expect(loaded.log).toContain('values asked'));
    expect(seen).toEqual([]);
    loaded.log.push('values drawn');
    release();
    await vi.waitFor(() => expect(seen).toEqual(['a']));
    // the loader went on (a paint, then Plotly) only after the values were drawn: an order, not a sleep that saw nothing
    expect(loaded.log.slice(0, 4)).toEqual(['values asked', 'values drawn', 'after paint asked', 'plotly loaded']);
  });

  it('draw a chart asked twice before its turn once, with the latest draw', async () => {
    const seen: string[] = [];
    const a = el('a');
    draws.requestChartDraw(a, () => seen.push('old'));
    draws.requestChartDraw(a, () => seen.push('new'));
    await vi.waitFor(() => expect(seen).toEqual(['new']));
    // a chart asked after it is drawn after it: the replaced draw, had it stayed in the queue, would have run by then
    draws.requestChartDraw(el('later'), () => seen.push('later'));
    await vi.waitFor(() => expect(seen).toContain('later'));
    expect(seen).toEqual(['new', 'later']);
  });

  it('give the thread back between slow redraws (a frame or input can come in between)', async () => {
    const log: string[] = [];
    const a = el('a');
    const b = el('b');
    for (const [name, e] of [
      ['a', a],
      ['b', b],
    ] as const)
      draws.requestChartDraw(e, () => log.push(`first ${name}`));
    await vi.waitFor(() => expect(log).toEqual(['first a', 'first b']));
    log.length = 0;
    const slow = (name: string) => () => {
      log.push(name);
      setTimeout(() => log.push(`after ${name}`), 0);
      spin(12);
    };
    draws.requestChartDraw(a, slow('a'));
    draws.requestChartDraw(b, slow('b'));
    await vi.waitFor(() => expect(log).toContain('after b'));
    expect(log.slice(0, 3)).toEqual(['a', 'after a', 'b']);
  });

  it('draw charts never drawn before a few per task (a dashboard opening), still giving the thread back', async () => {
    const log: string[] = [];
    const slow = (name: string) => () => {
      log.push(name);
      setTimeout(() => log.push(`after ${name}`), 0);
      spin(40);
    };
    // 40 ms each against the 100 ms budget of first draws: three in the first task, then the thread is given back
    for (const name of ['a', 'b', 'c', 'd']) draws.requestChartDraw(el(name), slow(name));
    await vi.waitFor(() => expect(log).toContain('after d'));
    expect(log.slice(0, 5)).toEqual(['a', 'b', 'c', 'after a', 'after b']);
  });

  it('draw the charts in view first, then those out of view, once each has been seen', async () => {
    let report: (entries: { target: Element; isIntersecting: boolean }[]) => void = () => undefined;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(cb: typeof report) {
          report = cb;
        }
        observe() {}
        unobserve() {}
      },
    );
    const seen: string[] = [];
    const below = el('below');
    const shown = el('shown');
    draws.requestChartDraw(below, () => seen.push('below'));
    draws.requestChartDraw(shown, () => seen.push('shown'));
    // a third chart reported in view is drawn; the two not reported yet are not, though they were asked first
    const early = el('early');
    draws.requestChartDraw(early, () => seen.push('early'));
    report([{ target: early, isIntersecting: true }]);
    await vi.waitFor(() => expect(seen).toContain('early'));
    expect(seen).toEqual(['early']);
    report([
      { target: below, isIntersecting: false },
      { target: shown, isIntersecting: true },
    ]);
    await vi.waitFor(() => expect(seen).toEqual(['early', 'shown', 'below']));
    draws.requestChartDraw(below, () => seen.push('below again'));
    await vi.waitFor(() => expect(seen).toEqual(['early', 'shown', 'below', 'below again']));
  });

  it('drop the waiting draw of a chart that leaves, and free its plot', async () => {
    const seen: string[] = [];
    const gone = el('gone');
    draws.requestChartDraw(el('first'), () => seen.push('first'));
    await vi.waitFor(() => expect(seen).toEqual(['first']));
    draws.requestChartDraw(gone, () => seen.push('gone'));
    draws.releaseChart(gone);
    // a chart asked after it is drawn after it: the dropped draw would have run by then
    draws.requestChartDraw(el('later'), () => seen.push('later'));
    await vi.waitFor(() => expect(seen).toContain('later'));
    expect(seen).toEqual(['first', 'later']);
    expect(loaded.purged).toEqual([gone]);
  });

  it("record Plotly's evaluation and each chart's first draw as user timings, never a redraw", async () => {
    performance.clearMeasures();
    const seen: string[] = [];
    const a = el('a');
    draws.requestChartDraw(a, () => seen.push('a'));
    draws.requestChartDraw(el('b'), () => seen.push('b'));
    await vi.waitFor(() => expect(seen).toEqual(['a', 'b']));
    draws.requestChartDraw(a, () => seen.push('a again'));
    await vi.waitFor(() => expect(seen).toEqual(['a', 'b', 'a again']));
    expect(performance.getEntriesByName(draws.CHART_TIMINGS.library, 'measure')).toHaveLength(1);
    expect(performance.getEntriesByName(draws.CHART_TIMINGS.firstDraw, 'measure')).toHaveLength(2);
  });
});

describe('Plotly preload', () => {
  const fakeDocument = () => {
    const head: Record<string, unknown>[] = [];
    const doc = {
      head: { appendChild: (node: Record<string, unknown>) => head.push(node) },
      createElement: (tag: string) => {
        const node: Record<string, unknown> = { tag, attributes: {} };
        node.setAttribute = (k: string, v: string) => ((node.attributes as Record<string, string>)[k] = v);
        return node;
      },
    };
    return { doc: doc as unknown as Document, head };
  };

  it('adds one low-priority module preload of the built chunk, once per page', () => {
    const { doc, head } = fakeDocument();
    draws.preloadChartLibrary(doc, 'assets/plotly-abc123.js');
    draws.preloadChartLibrary(doc, 'assets/plotly-abc123.js');
    expect(head).toHaveLength(1);
    expect(head[0]).toMatchObject({
      tag: 'link',
      rel: 'modulepreload',
      href: '/assets/plotly-abc123.js',
      attributes: { fetchpriority: 'low' },
    });
  });

  it('preloads nothing where the chunk name was never written in (the development server) or without a document', () => {
    const { doc, head } = fakeDocument();
    draws.preloadChartLibrary(doc, '__SENTRA_PLOTLY_CHUNK_FILE__');
    draws.preloadChartLibrary(undefined, 'assets/plotly-abc123.js');
    expect(head).toHaveLength(0);
    // neither counted as the page's preload: the built chunk is still preloaded afterwards
    draws.preloadChartLibrary(doc, 'assets/plotly-abc123.js');
    expect(head).toHaveLength(1);
  });
});
