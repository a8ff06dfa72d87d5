// A card type's view, loaded with every other card view in one chunk (cards/views.ts) the first time any is drawn.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { CardViewProps } from './definition.js';

/** A view's name in cards/views.ts: its export's name, or its file's name for a default export (`SingleValueView`). */
export type CardViewName = string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type View = LazyExoticComponent<ComponentType<CardViewProps<any>>>;

const made = new Map<CardViewName, View>();

/**
 * The lazy component of one view of cards/views.ts (one per name: card types sharing a view share it). A name no view
 * has fails registry.test.ts, which loads every definition's view.
 */
export function lazyView(name: CardViewName): View {
  let view = made.get(name);
  if (!view) made.set(name, (view = lazy(() => import('../views.js').then((m) => ({ default: m.views[name]! })))));
  return view;
}
