// One card of the dashboard view: its frame (title, the filter it shows), and its body drawn by the registry's view
// with the card's live data. Whatever goes wrong inside (unknown type, bad configuration, a failed query, a view
// that throws) is shown on this card only. Where cards must not act (edit layout, editor preview) the body is inert.
import { Suspense, memo, useEffect, useInsertionEffect, useMemo, type ReactNode } from 'react';
import { T, cardPixelHeight } from '@sentra/contracts';
import { CardErrorBoundary, CardProblem } from './common/CardErrorBoundary.js';
import type { CardComponent, CardDefinition } from './common/definition.js';
import { useCardData, useLiveDashboard } from '../dashboards/live/LiveDashboard.js';
import type { CardState } from '../dashboards/live/cardFeed.js';
import { useCardsReadOnly } from './common/readOnly.js';
import { preloadView } from './common/preloadView.js';
import { useAwaitingFirstFrame } from './common/firstFrames.js';
import { CARD_CLASS, ensureCardStyles } from './common/cardStyles.js';
import { cardDefinition } from './registry.js';
import { useLazyReady } from '../ui/preloadLazy.js';

const HEADER_PX = 34;

export function cardTitle(c: CardComponent, def?: CardDefinition): string {
  const own = c.view?.title;
  if (typeof own === 'string' && own.trim() !== '') return own;
  const fallback = def?.defaults.title;
  return typeof fallback === 'string' && fallback ? fallback : c.key;
}

function Loading() {
  return (
    <div data-testid="card-loading" className={CARD_CLASS.loading} role="progressbar" aria-label={T.cardViews.loading}>
      <div className={CARD_CLASS.spinner} />
    </div>
  );
}

/** Data handed to a card by its screen instead of the dashboard's live feed (the editor's preview of an unsaved card). */
export interface GivenCardData {
  /** undefined while it is being evaluated */
  state?: CardState;
}

function CardBody({
  component,
  def,
  dashboardId,
  bodyHeight,
  given,
}: {
  component: CardComponent;
  def: CardDefinition;
  dashboardId: number;
  bodyHeight: number;
  given?: GivenCardData;
}) {
  const live = useLiveDashboard();
  const fed = useCardData(dashboardId, component.key, def.live && !given);
  const state = given ? given.state : fed.state;
  useAwaitingFirstFrame(def.live && !given && !state);
  // the view's chunk still loading: the card's own placeholder, not a Suspense fallback (React would hold back the
  // reveal of every card for 300 ms after it)
  const viewReady = useLazyReady(def.view);
  const parsed = useMemo(
    () => def.config.safeParse({ ...def.defaults, ...(component.view ?? {}) }),
    [def, component.view],
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return (
      <CardProblem
        message={T.cards.invalidComponent}
        detail={issue ? `view.${issue.path.join('.')}: ${issue.message}` : undefined}
      />
    );
  }
  const data = state?.data;
  // a control card keeps its controls when its status query fails (it shows the reason on its status line)
  // a title's query is optional: without one it is just its text
  if (
    data &&
    data.success === false &&
    def.category !== 'control' &&
    def.category !== 'controlVariant' &&
    def.type !== 'TITLE'
  ) {
    return <CardProblem message={data.alert ?? T.cardViews.cardError} />;
  }
  if ((def.live && !state) || !viewReady) return <Loading />;
  const View = def.view;
  return (
    <View
      component={component}
      view={parsed.data}
      data={data}
      state={state}
      dashboardId={dashboardId}
      height={bodyHeight}
      decimals={live?.decimals}
    />
  );
}

/**
 * The card in the view grid: `h` is its height in grid rows (as laid out, doubled from storage). `actions`: the edit
 * layout's card menu, in the title line. `given`: data instead of the live feed (the editor's preview).
 */
export const CardSurface = memo(function CardSurface({
  component,
  h,
  dashboardId,
  actions,
  given,
}: {
  component: CardComponent;
  h: number;
  dashboardId: number;
  actions?: ReactNode;
  given?: GivenCardData;
}) {
  const def = cardDefinition(component.cat);
  // the view's chunk loads while the card waits for its first frame, not after it
  useEffect(() => void (def && preloadView(def.view)), [def]);
  const height = cardPixelHeight(h);
  const framed = def?.chrome !== 'bare';
  const bodyHeight = Math.max(0, height - (framed ? HEADER_PX : 0) - 2);
  const title = cardTitle(component, def);
  useInsertionEffect(() => ensureCardStyles(), []);
  const readOnly = useCardsReadOnly();
  return (
    // contained (the frame's class): a card's redraw (a chart measuring its labels) lays out and paints that card
    <div
      className={CARD_CLASS.frame}
      style={{ height, ...(actions && !framed ? { position: 'relative' } : {}) }}
      data-testid="dashboard-card"
      data-key={component.key}
      data-cat={component.cat}
    >
      {framed && (
        <div className={CARD_CLASS.header}>
          <h6 className={CARD_CLASS.title} title={title} data-testid="card-title">
            {title}
          </h6>
          {actions}
        </div>
      )}
      {!framed && actions && <div style={{ position: 'absolute', top: 4, right: 4, zIndex: 2 }}>{actions}</div>}
      <div
        className={framed ? `${CARD_CLASS.body} ${CARD_CLASS.framedBody}` : CARD_CLASS.body}
        data-testid="card-body"
        inert={readOnly || undefined}
        data-readonly={readOnly || undefined}
      >
        <CardErrorBoundary cardKey={component.key}>
          {!def ? (
            <CardProblem message={T.cardViews.unknownType(component.cat || '?')} />
          ) : (
            <Suspense fallback={<Loading />}>
              <CardBody
                component={component}
                def={def}
                dashboardId={dashboardId}
                bodyHeight={bodyHeight - (framed ? 8 : 0)}
                given={given}
              />
            </Suspense>
          )}
        </CardErrorBoundary>
      </div>
    </div>
  );
});
