// The navigation calls: the application's dashboards as navigation items, flat and as a tree; an application user
// sees the dashboards their grants open (each under its nearest granted ancestor).
import { navsContract } from '@sentra/contracts';
import type { Caller } from '../../platform/http/mount.js';
import { implement } from '../../platform/http/mount.js';
import type { DashboardsStore } from './dashboards.store.js';
import type { DashboardGrants } from './grants.js';
import { navFlat, navItems, navTree, visibleItems } from './navigation.js';

export const navsRoutes = (dashboards: Pick<DashboardsStore, 'navRows'>, grants: Pick<DashboardGrants, 'scopeOf'>) => {
  const itemsFor = async (caller: Caller) => {
    const [items, scope] = await Promise.all([navItems(dashboards, caller.app!.id), grants.scopeOf(caller)]);
    return scope === 'all' ? items : visibleItems(items, scope);
  };
  return implement(navsContract, {
    list: async ({ caller }) => ({ navs: navFlat(await itemsFor(caller)) }),
    detail: async ({ caller }) => {
      const items = await itemsFor(caller);
      return { navs: navFlat(items), navs_root_obj: navTree(items) };
    },
  });
};
