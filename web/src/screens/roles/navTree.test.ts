import { describe, expect, it } from 'vitest';
import { checkState, flattenTree, labelsOf, moveNav, toggleNav } from './navTree.js';
import { accessSummary } from './accessSummary.js';
import { TREE } from './navTree.test-kit.js';

describe('access tree, hierarchical (not descendant)', () => {
  it('checks an item with its whole subtree and unchecks it the same way', () => {
    expect(toggleNav(TREE, [], 1, false)).toEqual([1, 3, 5, 4]);
    expect(toggleNav(TREE, [1, 3, 5, 4, 2], 1, false)).toEqual([2]);
  });
  it('checks a parent when all its children are checked, and unchecks it when one is not', () => {
    expect(toggleNav(TREE, [4], 3, false)).toEqual([4, 3, 5, 1]);
    expect(toggleNav(TREE, [1, 3, 5, 4], 5, false)).toEqual([4]);
  });
  it('shows a parent with some picked descendants as partly checked', () => {
    expect(checkState(TREE, [5], 1, false)).toBe('partial');
    expect(checkState(TREE, [5], 5, false)).toBe('checked');
    expect(checkState(TREE, [5], 2, false)).toBe('unchecked');
  });
});

describe("access tree, 'Include All Children' (descendant)", () => {
  it('picks items one by one; a picked item drops its descendants, which show as included', () => {
    expect(toggleNav(TREE, [5, 2], 1, true)).toEqual([2, 1]);
    expect(toggleNav(TREE, [2, 1], 1, true)).toEqual([2]);
    expect(checkState(TREE, [1], 5, true)).toBe('included');
    expect(checkState(TREE, [1], 2, true)).toBe('unchecked');
  });
});

describe('order step', () => {
  it('moves an item and ignores moves out of range', () => {
    expect(moveNav([1, 2, 3], 2, 0)).toEqual([3, 1, 2]);
    expect(moveNav([1, 2, 3], 0, 3)).toEqual([1, 2, 3]);
  });
  it('labels ids in order and leaves out unknown ones', () => {
    expect(labelsOf(TREE, [2, 99, 5])).toEqual([
      { id: 2, label: 'Air' },
      { id: 5, label: 'Lantai1' },
    ]);
    expect(flattenTree(TREE).map((n) => n.depth)).toEqual([0, 1, 2, 1, 0]);
  });
});

describe('Akses column', () => {
  it('shows up to 6 navigation names', () => {
    expect(accessSummary(['A', 'B'])).toBe('A, B');
    expect(accessSummary(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'])).toBe('a1, a2, a3, a4, a5, a6, …');
  });
  it('cuts at about 60 characters', () => {
    const long = accessSummary(['Dashboard Produksi Lini Satu', 'Dashboard Produksi Lini Dua', 'Dashboard Gudang']);
    expect(long.length).toBeLessThanOrEqual(61);
    expect(long.endsWith('…')).toBe(true);
  });
  it('is empty without navigation', () => {
    expect(accessSummary([])).toBe('');
  });
});
