// The navigation calls: the application's dashboards as navigation items, flat and as a tree; an application user
// sees the dashboards their grants open (each under its nearest granted ancestor).
import { navsContract } from '@sentra/contracts';
import type { Db } from '../../db.js';
import type { Caller } from '../../platform/http/mount.js';
import { implement } from '../../platform/http/mount.js';
import type { DashboardGrants } from './grants.js';
import { navFlat, navItems, navTree, visibleItems } from './navigation.js';

export const navsRoutes = (db: Db, grants: Pick<DashboardGrants, 'scopeOf'>) => {
  const itemsFor = (caller: Caller) => {
    const items = navItems(db, caller.app!.id);
    const scope = grants.scopeOf(caller);
    return scope === 'all' ? items : visibleItems(items, scope);
  };
  return implement(navsContract, {
    list: ({ caller }) => ({ navs: navFlat(itemsFor(caller)) }),
    detail: ({ caller }) => {
      const items = itemsFor(caller);
      return { navs: navFlat(items), navs_root_obj: navTree(items) };
    },
  });
};
