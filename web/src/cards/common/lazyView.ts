// A card type's view, loaded with every other card view in one chunk (cards/views.ts) the first time any is drawn.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type * as Views from '../views.js';
import type { CardViewProps } from './definition.js';

export type CardViewName = keyof typeof Views;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type View = LazyExoticComponent<ComponentType<CardViewProps<any>>>;

const made = new Map<CardViewName, View>();

/** The lazy component of one view of cards/views.ts (one per name: card types sharing a view share it). */
export function lazyView(name: CardViewName): View {
  let view = made.get(name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  if (!view)
    made.set(
      name,
      (view = lazy(() =>
        import('../views.js').then((m) => ({ default: m[name] as ComponentType<CardViewProps<any>> })),
      )),
    );
  return view;
}
