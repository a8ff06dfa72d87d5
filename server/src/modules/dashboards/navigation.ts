// Dashboards as navigation: the application's items flat and as a tree, and the menu a role's selection gives.
import type { NavEntry } from '@sentra/contracts';
import type { DashboardsStore } from './dashboards.store.js';

export interface NavItem {
  id: number;
  label: string;
  path: string;
  parent: number | null;
  sort: number;
}

/** Every navigation item of the application, by (sort, id); a parent outside the application counts as none. */
export async function navItems(dashboards: Pick<DashboardsStore, 'navRows'>, appId: number): Promise<NavItem[]> {
  return asNavItems(await dashboards.navRows(appId));
}

/** An application's dashboard rows (by sort, id) as navigation items: a parent outside them, or itself, counts as none. */
export function asNavItems(rows: readonly NavItem[]): NavItem[] {
  const ids = new Set(rows.map((r) => r.id));
  return rows.map((r) => ({
    ...r,
    parent: r.parent !== null && ids.has(r.parent) && r.parent !== r.id ? r.parent : null,
  }));
}

function childrenIndex(items: NavItem[]): Map<number | null, NavItem[]> {
  const byParent = new Map<number | null, NavItem[]>();
  for (const item of items) {
    const list = byParent.get(item.parent) ?? [];
    list.push(item);
    byParent.set(item.parent, list);
  }
  return byParent;
}

/** The subtree under `item`; a parent cycle in the data is cut where it closes. */
function entryOf(item: NavItem, byParent: Map<number | null, NavItem[]>, seen: Set<number>): NavEntry {
  seen.add(item.id);
  const children = (byParent.get(item.id) ?? []).filter((c) => !seen.has(c.id)).map((c) => entryOf(c, byParent, seen));
  return { id: item.id, path: item.path, label: item.label, children };
}

/** The whole tree: roots by (sort, id), children likewise. Items caught in a parent cycle become roots. */
export function navTree(items: NavItem[]): NavEntry[] {
  const byParent = childrenIndex(items);
  const seen = new Set<number>();
  const tree = (byParent.get(null) ?? []).map((root) => entryOf(root, byParent, seen));
  for (const item of items) if (!seen.has(item.id)) tree.push(entryOf(item, byParent, seen));
  return tree;
}

/** Flat list with parents before their children (depth-first over the tree). */
export function navFlat(items: NavItem[]): NavItem[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const out: NavItem[] = [];
  const walk = (entries: NavEntry[]) => {
    for (const e of entries) {
      out.push(byId.get(e.id)!);
      walk(e.children);
    }
  };
  walk(navTree(items));
  return out;
}

function ancestors(item: NavItem, byId: Map<number, NavItem>): number[] {
  const out: number[] = [];
  let parent = item.parent;
  while (parent !== null && parent !== item.id && !out.includes(parent)) {
    out.push(parent);
    parent = byId.get(parent)?.parent ?? null;
  }
  return out;
}

/**
 * The menu a role's selection gives. `selected`: granted ids in the role's sort order.
 * - descendant: each granted item with all its children (as the tree has them); an item already inside another
 *   granted item's subtree is not repeated at the top.
 * - otherwise only the granted items: each one sits under its nearest granted ancestor, in the role's order.
 */
export function roleMenu(items: NavItem[], selected: number[], descendant: boolean): NavEntry[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const granted = selected.filter((id) => byId.has(id));
  const grantedSet = new Set(granted);
  if (descendant) {
    const byParent = childrenIndex(items);
    return granted
      .filter((id) => !ancestors(byId.get(id)!, byId).some((a) => grantedSet.has(a)))
      .map((id) => entryOf(byId.get(id)!, byParent, new Set()));
  }
  const entries = new Map<number, NavEntry>(
    granted.map((id) => {
      const item = byId.get(id)!;
      return [id, { id, path: item.path, label: item.label, children: [] }];
    }),
  );
  const roots: NavEntry[] = [];
  for (const id of granted) {
    const holder = ancestors(byId.get(id)!, byId).find((a) => grantedSet.has(a));
    if (holder === undefined) roots.push(entries.get(id)!);
    else entries.get(holder)!.children.push(entries.get(id)!);
  }
  return roots;
}

/**
 * The dashboard ids a role's selection opens: the selected items of the application, and with `descendant` every
 * item below them (a parent cycle in the data is cut). roleMenu gives the same items as a menu.
 */
export function grantedIds(
  items: readonly Pick<NavItem, 'id' | 'parent'>[],
  selected: Iterable<number>,
  descendant: boolean,
): Set<number> {
  const known = new Set(items.map((i) => i.id));
  const ids = new Set([...selected].filter((id) => known.has(id)));
  if (!descendant) return ids;
  const children = new Map<number, number[]>();
  for (const { id, parent } of items) if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), id]);
  const stack = [...ids];
  while (stack.length)
    for (const child of children.get(stack.pop()!) ?? []) if (!ids.has(child)) (ids.add(child), stack.push(child));
  return ids;
}

/** The items in `visible` as a tree of their own: each one sits under its nearest visible ancestor. */
export function visibleItems(items: NavItem[], visible: ReadonlySet<number>): NavItem[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  return items
    .filter((i) => visible.has(i.id))
    .map((i) => ({ ...i, parent: ancestors(i, byId).find((a) => visible.has(a)) ?? null }));
}
