// Starts loading a card's lazy view chunk before its data comes (when the dashboard record is known, and again as the
// card mounts): the view then renders at once with the first frame, instead of fetching its chunk only then (a
// waterfall, and React reveals a suspended boundary throttled). See ui/preloadLazy.ts.
import type { ComponentType, LazyExoticComponent } from 'react';
import { preloadLazy } from '../../ui/preloadLazy.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function preloadView(view: LazyExoticComponent<ComponentType<any>>): Promise<void> {
  return preloadLazy(view);
}
