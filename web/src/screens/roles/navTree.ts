// The access step's tree of navigation items (dashboards) and the selection it edits, as pure functions.
// Hierarchical (not descendant): checking an item checks its whole subtree, and a parent is checked exactly when all of
// its children are. 'Include All Children' (descendant): items are picked one by one, each standing for its subtree,
// so picking an item drops its descendants from the selection (they are included anyway).
import type { NavEntry } from '@sentra/contracts';

export interface FlatNav {
  id: number;
  label: string;
  path: string;
  depth: number;
  parentId: number | null;
  childIds: number[];
}

/** Every item in tree order (parents before children). */
export function flattenTree(tree: readonly NavEntry[]): FlatNav[] {
  const out: FlatNav[] = [];
  const walk = (items: readonly NavEntry[], depth: number, parentId: number | null) => {
    for (const n of items) {
      out.push({ id: n.id, label: n.label, path: n.path, depth, parentId, childIds: n.children.map((c) => c.id) });
      walk(n.children, depth + 1, n.id);
    }
  };
  walk(tree, 0, null);
  return out;
}

function index(tree: readonly NavEntry[]): Map<number, FlatNav> {
  return new Map(flattenTree(tree).map((n) => [n.id, n]));
}

/** The ids below `id`, in tree order. */
export function descendantsOf(tree: readonly NavEntry[], id: number): number[] {
  const byId = index(tree);
  const out: number[] = [];
  const walk = (ids: readonly number[]) => {
    for (const c of ids) {
      out.push(c);
      walk(byId.get(c)?.childIds ?? []);
    }
  };
  walk(byId.get(id)?.childIds ?? []);
  return out;
}

function ancestorsOf(byId: Map<number, FlatNav>, id: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>([id]);
  for (let p = byId.get(id)?.parentId ?? null; p !== null && !seen.has(p); p = byId.get(p)?.parentId ?? null) {
    seen.add(p);
    out.push(p);
  }
  return out;
}

/** Checks or unchecks `id`; new items are appended (in tree order) so the order step keeps earlier choices. */
export function toggleNav(
  tree: readonly NavEntry[],
  selected: readonly number[],
  id: number,
  descendant: boolean,
): number[] {
  const byId = index(tree);
  if (!byId.has(id)) return [...selected];
  const checked = selected.includes(id);
  if (descendant) {
    if (checked) return selected.filter((s) => s !== id);
    const below = new Set(descendantsOf(tree, id));
    return [...selected.filter((s) => !below.has(s)), id];
  }
  const subtree = [id, ...descendantsOf(tree, id)];
  let next = checked
    ? selected.filter((s) => !subtree.includes(s))
    : [...selected, ...subtree.filter((s) => !selected.includes(s))];
  // conduct upwards: a parent is checked exactly when all of its children are
  for (const a of ancestorsOf(byId, id)) {
    const all = byId.get(a)!.childIds.every((c) => next.includes(c));
    if (all && !next.includes(a)) next = [...next, a];
    if (!all && next.includes(a)) next = next.filter((s) => s !== a);
  }
  return next;
}

export type CheckState = 'checked' | 'partial' | 'included' | 'unchecked';

/** How an item's checkbox shows: checked, partly (some descendants), or included by a picked ancestor. */
export function checkState(
  tree: readonly NavEntry[],
  selected: readonly number[],
  id: number,
  descendant: boolean,
): CheckState {
  if (selected.includes(id)) return 'checked';
  const byId = index(tree);
  if (descendant && ancestorsOf(byId, id).some((a) => selected.includes(a))) return 'included';
  if (!descendant && descendantsOf(tree, id).some((d) => selected.includes(d))) return 'partial';
  return 'unchecked';
}

/** Moves the item at `from` to `to` (the order step). */
export function moveNav(selected: readonly number[], from: number, to: number): number[] {
  if (from < 0 || from >= selected.length || to < 0 || to >= selected.length || from === to) return [...selected];
  const next = [...selected];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** Labels of ids, for the order step; unknown ids (a dashboard deleted meanwhile) are left out. */
export function labelsOf(tree: readonly NavEntry[], ids: readonly number[]): { id: number; label: string }[] {
  const byId = index(tree);
  return ids.flatMap((id) => {
    const n = byId.get(id);
    return n ? [{ id, label: n.label }] : [];
  });
}
