// What the dashboard screens use of the cards: the live context of a dashboard view and the card drawn in its grid.
import { createElement, type ReactNode } from 'react';
import { CardSurface } from './CardSurface.js';
import type { CardComponent } from './common/definition.js';

export {
  LiveDashboard,
  filterParams,
  joinDashboardEarly,
  preloadDashboardViews,
} from '../dashboards/live/LiveDashboard.js';
export { CardSurface, type GivenCardData } from './CardSurface.js';
export { CardsReadOnly } from './common/readOnly.js';
export { registry, cardDefinition } from './registry.js';

/** The grid's card renderer for a dashboard: the registry's view with the card's live data (and the edit layout's menu). */
export const liveCardRenderer =
  (dashboardId: number) => (c: { key: string; cat: string }, h: number, actions?: ReactNode) =>
    createElement(CardSurface, { component: c as CardComponent, h, dashboardId, actions });
