// The component editor's live preview (issue 28): the card the form describes, drawn by the card view the dashboard
// draws it with, fed by the gateway's evaluation of the unsaved configuration (POST /fetch/web/preview, the card
// query's evaluation and grants) 400 ms after the last change; read-only (a command card sends nothing from here);
// while a query is incomplete, the spec's message instead of a card.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box } from '@mui/material';
import { T, contracts, type CardData } from '@sentra/contracts';
import { CallError, callOrThrow } from '../../../api/call.js';
import { CardSurface, CardsReadOnly, cardDefinition, type GivenCardData } from '../../../cards/index.js';
import type { CardComponent } from '../../../cards/common/definition.js';
import type { ComponentEditorState } from './componentEditor.js';
import { previewOf } from './preview.js';
import { loadHeight } from '../gridLayout.js';

/** edits closer together than this are evaluated once */
export const PREVIEW_DEBOUNCE_MS = 400;

type Evaluated = { sig: string; cat: string; data?: CardData; failure?: string; frame: number };

export function ComponentPreview({
  dashboardId,
  state,
  filter,
}: {
  dashboardId: number;
  state: ComponentEditorState;
  filter: Record<string, unknown>;
}) {
  const preview = useMemo(() => previewOf(state), [state]);
  const component = preview.kind === 'card' ? preview.component : undefined;
  const live = component ? (cardDefinition(component.cat)?.live ?? false) : false;
  const sig = component && live ? JSON.stringify(component) : '';
  const [evaluated, setEvaluated] = useState<Evaluated>();
  const frames = useRef(0);

  useEffect(() => {
    if (!sig) return;
    let current = true;
    const timer = setTimeout(() => {
      const sent = JSON.parse(sig) as NonNullable<typeof component>;
      const input = { dashboardId, component: sent, ...filter } as never;
      // the failure is the card's own text (in the preview's place), not a notice
      void callOrThrow(contracts.cards.preview, input, T.cardViews.cardError).then(
        (data) => current && setEvaluated({ sig, cat: sent.cat, data: data as CardData, frame: ++frames.current }),
        (e: unknown) =>
          current &&
          setEvaluated({
            sig,
            cat: sent.cat,
            failure: e instanceof CallError ? e.message : T.cardViews.cardError,
            frame: ++frames.current,
          }),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [sig, dashboardId, filter]);

  // the last evaluation stays on while the next one is on its way, as long as it is of the same card type
  const given = useMemo<GivenCardData>(() => {
    if (!evaluated?.data || !component || evaluated.cat !== component.cat) return {};
    return { state: { data: evaluated.data, frame: evaluated.frame, seq: 0, appends: [], receivedAt: Date.now() } };
  }, [evaluated, component]);

  if (preview.kind === 'message')
    return (
      <Alert
        severity={preview.incomplete ? 'warning' : 'info'}
        variant="outlined"
        data-testid="component-preview-message"
      >
        {preview.message}
      </Alert>
    );
  const c = preview.component as unknown as CardComponent;
  const w = Math.min(4, Math.max(1, c.w));
  const failure = evaluated?.sig === sig ? evaluated.failure : undefined;
  return (
    <Box data-testid="component-preview" data-pending={live && evaluated?.sig !== sig ? 'true' : 'false'}>
      {failure && (
        <Alert severity="error" variant="outlined" sx={{ mb: 1 }}>
          {failure}
        </Alert>
      )}
      <Box sx={{ width: { xs: '100%', md: `${(w / 4) * 100}%` }, minWidth: { md: 260 }, maxWidth: '100%' }}>
        <CardsReadOnly.Provider value={true}>
          <CardSurface
            component={c}
            h={Math.max(1, Math.round(loadHeight(c)))}
            dashboardId={dashboardId}
            given={live ? given : undefined}
          />
        </CardsReadOnly.Provider>
      </Box>
    </Box>
  );
}
