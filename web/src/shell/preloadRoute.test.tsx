// Which part of the address names a screen inside an application area (its chunk is loaded before the first render).
import { describe, expect, it } from 'vitest';
import { areaRest, screensAt } from './preloadRoute.js';
import { routePath } from './routeRegistry.js';

describe('areaRest', () => {
  it('is the path after the application of a tenant or an application user', () => {
    expect(areaRest('/admin/demo/_dashboard_view_/7')).toBe('_dashboard_view_/7');
    expect(areaRest('/demo/_dashboard_view_/7')).toBe('_dashboard_view_/7');
  });

  it('is nothing outside an application area', () => {
    expect(areaRest('/admin/apps/list')).toBeUndefined();
    expect(areaRest('/admin/login')).toBeUndefined();
    expect(areaRest('/pages/signin')).toBeUndefined();
    expect(areaRest('/admin/demo')).toBeUndefined();
  });
});

describe('screensAt', () => {
  it('finds the screen of a route key with parameters', () => {
    const routes = [{ key: '_dashboard_list_' }, { key: '_dashboard_view_/{id}' }, { key: '_role_edit_/{id}' }];
    expect(screensAt(routes, '_dashboard_view_/7', routePath).map((r) => r.key)).toEqual(['_dashboard_view_/{id}']);
    expect(screensAt(routes, '_dashboard_list_', routePath).map((r) => r.key)).toEqual(['_dashboard_list_']);
    expect(screensAt(routes, 'nothing/here', routePath)).toEqual([]);
  });
});
