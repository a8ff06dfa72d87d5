// Starts loading a card's lazy view chunk as soon as the card is on the grid, before its data comes: the view then
// renders at once with the first frame, instead of fetching its chunk only then (a waterfall, and React reveals a
// suspended boundary throttled). React.lazy has no public preload, so this initialises the lazy component exactly as
// rendering it would (its `_init` on its `_payload`: a pending load throws its promise, caught here). Where those
// fields are missing (another React) it does nothing and the view loads on first render as before.
import type { ComponentType, LazyExoticComponent } from 'react';

interface LazyInternals {
  _init?: (payload: unknown) => unknown;
  _payload?: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function preloadView(view: LazyExoticComponent<ComponentType<any>>): void {
  const lazy = view as unknown as LazyInternals;
  if (typeof lazy._init !== 'function') return;
  try {
    lazy._init(lazy._payload);
  } catch {
    // the load's promise (still loading) or its error: rendering the view reports it, on this card only
  }
}
