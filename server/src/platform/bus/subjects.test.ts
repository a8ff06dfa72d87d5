// The memory bus's subject index: wildcard matching, removal, and no growth from short-lived subjects.
import { describe, expect, it } from 'vitest';
import { SubjectIndex, assertPublishSubject, assertSubscribeSubject } from './subjects.js';

describe('SubjectIndex', () => {
  it('matches exact tokens, * for one token and > for one or more', () => {
    const idx = new SubjectIndex<string>();
    for (const s of ['a.b.c', 'a.*.c', 'a.>', '>', '*.b', 'a.b']) idx.add(s, s);
    expect(idx.match('a.b.c').sort()).toEqual(['>', 'a.*.c', 'a.>', 'a.b.c']);
    expect(idx.match('a.b').sort()).toEqual(['*.b', '>', 'a.>', 'a.b']);
    expect(idx.match('a').sort()).toEqual(['>']);
  });

  it('forgets removed subscriptions, including cached matches', () => {
    const idx = new SubjectIndex<string>();
    idx.add('x.*', 'one');
    expect(idx.match('x.y')).toEqual(['one']);
    idx.remove('x.*', 'one');
    expect(idx.match('x.y')).toEqual([]);
  });

  it("keeps other subjects' matches when an exact subscription comes or goes, and works out all again for a wildcard", () => {
    const idx = new SubjectIndex<string>();
    idx.add('tele.>', 'writer');
    const tele = idx.match('tele.1.2');
    idx.add('_INBOX.1', 'inbox');
    expect(idx.match('tele.1.2')).toBe(tele); // the same cached match
    expect(idx.match('_INBOX.1')).toEqual(['inbox']);
    idx.remove('_INBOX.1', 'inbox');
    expect(idx.match('_INBOX.1')).toEqual([]);
    idx.add('tele.1.2', 'exact');
    expect(idx.match('tele.1.2').sort()).toEqual(['exact', 'writer']);
    idx.add('tele.*.2', 'star');
    expect(idx.match('tele.1.2').sort()).toEqual(['exact', 'star', 'writer']);
  });

  it('prunes empty branches so request inboxes do not accumulate', () => {
    const idx = new SubjectIndex<number>();
    for (let i = 0; i < 1000; i++) {
      idx.add(`_INBOX.${i}`, i);
      idx.remove(`_INBOX.${i}`, i);
    }
    expect((idx as unknown as { root: { children: Map<string, unknown> } }).root.children.size).toBe(0);
  });
});

describe('subject rules', () => {
  it('accepts NATS-style subjects and refuses malformed ones', () => {
    expect(() => assertPublishSubject('tele.12.34')).not.toThrow();
    for (const bad of ['', 'a..b', 'a.*', 'a.>', 'a b', '.a']) expect(() => assertPublishSubject(bad)).toThrow();
    expect(() => assertSubscribeSubject('tele.*.>')).not.toThrow();
    for (const bad of ['a.>.b', 'a.b>', '', 'a..b']) expect(() => assertSubscribeSubject(bad)).toThrow();
  });
});
