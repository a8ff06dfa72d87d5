// What the dashboard screens use of the cards: the live context of a dashboard view and the card drawn in its grid.
import { createElement } from 'react';
import { CardSurface } from './CardSurface.js';
import type { CardComponent } from './common/definition.js';

export { LiveDashboard, joinDashboardEarly, preloadDashboardViews } from '../dashboards/live/LiveDashboard.js';
export { CardSurface } from './CardSurface.js';
export { registry, cardDefinition } from './registry.js';

/** The view grid's card renderer for a dashboard: the registry's view with the card's live data. */
export const liveCardRenderer = (dashboardId: number) => (c: { key: string; cat: string }, h: number) =>
  createElement(CardSurface, { component: c as CardComponent, h, dashboardId });
