import { describe, expect, it } from 'vitest';
import { createAnswerCache } from './answerCache.js';
import type { CardResult } from './cardData.js';

const result = (value: number, ...deps: string[]): CardResult => ({
  data: { key: 'k', cat: 'SINGLE_VALUE_CARD', value } as never,
  deps: new Set(deps),
});

describe('createAnswerCache', () => {
  function setup(maxEntries = 10) {
    let clock = 0;
    const cache = createAnswerCache({ ttlMs: 1000, maxEntries, now: () => clock });
    return { cache, tick: (ms: number) => (clock += ms) };
  }

  it('answers the same question from memory until what it read changes', () => {
    const { cache } = setup();
    const view = {};
    const k = cache.keyOf(view, 'daya', { period: 'TODAY' });
    cache.set(k, result(1, 'd:1|pm|meter|power'));
    expect(cache.get(k)?.data).toMatchObject({ value: 1 });
    cache.touch(['d:2|pm|meter|power']);
    expect(cache.get(k)).toBeDefined();
    cache.touch(['d:1|pm|meter|power']);
    expect(cache.get(k)).toBeUndefined();
  });

  it('tells questions apart by dashboard object, component and filter', () => {
    const { cache } = setup();
    const [a, b] = [{}, {}];
    expect(
      new Set([
        cache.keyOf(a, 'x', {}),
        cache.keyOf(b, 'x', {}),
        cache.keyOf(a, 'y', {}),
        cache.keyOf(a, 'x', { period: 'TODAY' }),
      ]).size,
    ).toBe(4);
    expect(cache.keyOf(a, 'x', { period: 'TODAY' })).toBe(cache.keyOf(a, 'x', { period: 'TODAY' }));
  });

  it('forgets an answer after the time limit and keeps at most maxEntries', () => {
    const { cache, tick } = setup(2);
    const v = {};
    cache.set(cache.keyOf(v, 'a', {}), result(1));
    tick(999);
    expect(cache.get(cache.keyOf(v, 'a', {}))).toBeDefined();
    tick(1);
    expect(cache.get(cache.keyOf(v, 'a', {}))).toBeUndefined();
    for (const key of ['b', 'c', 'd']) cache.set(cache.keyOf(v, key, {}), result(2, 'app:1'));
    expect(cache.size).toBe(2);
    expect(cache.get(cache.keyOf(v, 'b', {}))).toBeUndefined(); // the oldest went first
    cache.touch(['app:1']);
    expect(cache.size).toBe(0);
  });

  it('does not keep an answer whose reads were touched while it was being evaluated (an older value)', () => {
    const { cache } = setup();
    const v = {};
    const [a, b] = [cache.keyOf(v, 'a', {}), cache.keyOf(v, 'b', {})];
    const first = cache.begin();
    const second = cache.begin();
    expect(cache.evaluating).toBe(2);
    // points of device 1 committed while both were reading
    cache.touch(['d:1|pm|meter|power']);
    cache.set(a, result(1, 'd:1|pm|meter|power'), first);
    cache.set(b, result(2, 'd:2|pm|meter|power'), second);
    cache.end(first);
    cache.end(second);
    expect(cache.get(a)).toBeUndefined();
    expect(cache.get(b)?.data).toMatchObject({ value: 2 });
    expect(cache.stats.stale).toBe(1);
    expect(cache.evaluating).toBe(0);
  });
});
