// The routes of an area's screens that share a title and their grants, written as route key → screen.
import type { ScreenRoute } from './routeRegistry.js';

export const routesOf = (
  title: string,
  grantedBy: ScreenRoute['grantedBy'],
  screens: Readonly<Record<string, ScreenRoute['screen']>>,
): ScreenRoute[] => Object.entries(screens).map(([key, screen]) => ({ key, title, grantedBy, screen }));
