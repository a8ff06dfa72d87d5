// Rendering a card view in tests: the definition's view with a fixture payload inside a dashboard's live context
// (a live hub without a socket), jsdom given a size so charts and text fit.
import { Suspense, type ReactElement } from 'react';
import { afterEach, beforeAll, expect } from 'vitest';
import { cleanup, configure, render } from '@testing-library/react';
import type { CardData, CardTypeCode } from '@sentra/contracts';
import type { CardState } from '../dashboards/live/cardFeed.js';
import { createLiveHub, type LiveTransport } from '../live/hub.js';
import type { CardComponent } from './common/definition.js';
import { LiveDashboard } from '../dashboards/live/LiveDashboard.js';
import { registry } from './registry.js';

// lazy views load their chunk on first use: slower than the default second on a busy machine
configure({ asyncUtilTimeout: 8000 });

export const silentTransport: LiveTransport = {
  subscribe: () => new Promise(() => undefined),
  unsubscribe: () => undefined,
  on: () => () => undefined,
  onReconnect: () => () => undefined,
};

export function stubLayout(width = 480, height = 320) {
  Object.defineProperty(HTMLElement.prototype, 'getBoundingClientRect', {
    configurable: true,
    value: () => ({ x: 0, y: 0, left: 0, top: 0, right: width, bottom: height, width, height, toJSON: () => ({}) }),
  });
}

/** A render test file's set-up: jsdom given a size (stubLayout), what a test drew removed after it. */
export function setUpRenderTests() {
  beforeAll(() => stubLayout());
  afterEach(cleanup);
}

export interface CardFixture {
  view?: Record<string, unknown>;
  model?: Record<string, unknown>;
  data?: Partial<CardData>;
  state?: Partial<CardState>;
  w?: number;
  h?: number;
  key?: string;
  globals?: Record<string, unknown>;
  components?: CardComponent[];
  /** rendered inside the same live context (probes) */
  extra?: ReactElement;
}

export function componentOf(cat: CardTypeCode, f: CardFixture = {}): CardComponent {
  return { key: f.key ?? 'card1', cat, x: 0, y: 0, w: f.w ?? 2, h: f.h ?? 2, view: f.view, model: f.model };
}

export function cardElement(cat: CardTypeCode, f: CardFixture = {}): ReactElement {
  const def = registry[cat];
  const component = componentOf(cat, f);
  const view = def.config.parse({ ...def.defaults, ...(f.view ?? {}) });
  const data = f.data ? ({ key: component.key, cat, success: true, ...f.data } as CardData) : undefined;
  const state = data ? ({ data, frame: 1, seq: 0, appends: [], receivedAt: 0, ...f.state } as CardState) : undefined;
  const View = def.view;
  return (
    <LiveDashboard
      dashboardId={1}
      components={f.components ?? [component]}
      hub={createLiveHub(silentTransport)}
      globals={f.globals}
    >
      <Suspense fallback={<span>loading</span>}>
        <View component={component} view={view} data={data} state={state} dashboardId={1} height={300} decimals={2} />
      </Suspense>
      {f.extra}
    </LiveDashboard>
  );
}

export function renderCard(cat: CardTypeCode, f: CardFixture = {}) {
  return render(cardElement(cat, f));
}

/** Hostile texts a device or a member may send (issue 23): shown as typed, never an element. */
export const PAYLOAD = '<img src=x onerror="window.__xss=1">';
export const SCRIPT = '<script>window.__xss=1</script>';

/** No element a payload could have made, anywhere in the document. */
export function noInjectedElement() {
  expect(document.querySelector('img[src="x"], img[onerror], script')).toBeNull();
}
