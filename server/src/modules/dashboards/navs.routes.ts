// The navigation calls: the application's dashboards as navigation items, flat and as a tree.
import { navsContract } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { implement } from '../../platform/http/mount.js';
import { navFlat, navItems, navTree } from './navigation.js';

export const navsRoutes = (db: Db) =>
  implement(navsContract, {
    list: ({ caller }) => ({ navs: navFlat(navItems(db, caller.app!.id)) }),
    detail: ({ caller }) => {
      const items = navItems(db, caller.app!.id);
      return { navs: navFlat(items), navs_root_obj: navTree(items) };
    },
  });
