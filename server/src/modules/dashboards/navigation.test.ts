// The menu shapes a role's selection gives, without a server: trees, role order, descendant, damaged parent data.
import { describe, expect, it } from 'vitest';
import { navFlat, navTree, roleMenu, type NavItem } from './navigation.js';

const item = (id: number, parent: number | null, sort = id): NavItem => ({
  id,
  label: `N${id}`,
  path: `n${id}`,
  parent,
  sort,
});
// 1 (3 (5), 4), 2
const items = [item(1, null, 1), item(2, null, 2), item(3, 1, 1), item(4, 1, 2), item(5, 3, 1)];
const ids = (entries: { id: number; children: unknown[] }[]): unknown =>
  entries.map((e) => (e.children.length ? [e.id, ids(e.children as never)] : e.id));

describe('navigation', () => {
  it('builds the tree by sort and lists it flat with parents first', () => {
    expect(ids(navTree(items))).toEqual([[1, [[3, [5]], 4]], 2]);
    expect(navFlat(items).map((i) => i.id)).toEqual([1, 3, 5, 4, 2]);
  });
  it('keeps the role order and nests a picked item under its nearest picked ancestor', () => {
    expect(ids(roleMenu(items, [2, 5, 1], false))).toEqual([2, [1, [5]]]);
  });
  it('gives whole subtrees when descendant, without repeating a picked item inside another', () => {
    expect(ids(roleMenu(items, [3, 2, 1], true))).toEqual([2, [1, [[3, [5]], 4]]]);
  });
  it('ignores ids that are not navigation items of the application', () => {
    expect(ids(roleMenu(items, [99, 2], false))).toEqual([2]);
  });
  it('cuts a parent cycle instead of looping', () => {
    const cyclic = [item(1, 2), item(2, 1), item(3, null)];
    expect(
      navTree(cyclic)
        .map((e) => e.id)
        .sort(),
    ).toEqual([1, 3]);
    expect(roleMenu(cyclic, [1], true)).toHaveLength(1);
  });
});
