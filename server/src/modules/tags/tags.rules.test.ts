// What each tag category type accepts (spec 03 sections 3, 5).
import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import { checkTagValues } from './tags.rules.js';

const rule = (category: number, options: [string, string][] = []) => ({
  prefix: 'p',
  category,
  options: new Map(options),
});

describe('tag values', () => {
  it('single selection: one registered option, by key or name, stored as its key', () => {
    expect(checkTagValues(rule(1, [['gedung_a', 'Gedung A']]), ['Gedung A'])).toEqual({
      ok: true,
      values: ['gedung_a'],
    });
    expect(checkTagValues(rule(1, [['gedung_a', 'Gedung A']]), ['gedung_b'])).toMatchObject({
      ok: false,
      message: T.tags.serverUnknownOption,
    });
    expect(
      checkTagValues(
        rule(1, [
          ['a', 'A'],
          ['b', 'B'],
        ]),
        ['a', 'b'],
      ),
    ).toMatchObject({ ok: false, message: T.tags.serverOneValue });
  });
  it('single value and checkbox take one value', () => {
    expect(checkTagValues(rule(2), ['bebas apa saja'])).toEqual({ ok: true, values: ['bebas apa saja'] });
    expect(checkTagValues(rule(3), ['true'])).toEqual({ ok: true, values: ['true'] });
    expect(checkTagValues(rule(3), ['ya'])).toMatchObject({ ok: false, message: T.tags.serverCheckbox });
  });
  it('multi: the messages of section 5, at most 3, unique', () => {
    expect(checkTagValues(rule(4), ['pompa air', 'lt_2'])).toEqual({ ok: true, values: ['pompa air', 'lt_2'] });
    expect(checkTagValues(rule(4), ['2lantai'])).toMatchObject({ message: T.tags.startsWithDigit });
    expect(checkTagValues(rule(4), ['a'.repeat(17)])).toMatchObject({ message: T.tags.maxChars });
    expect(checkTagValues(rule(4), ['Besar'])).toMatchObject({ message: T.tags.noCapitals });
    expect(checkTagValues(rule(4), ['a', 'b', 'c', 'd'])).toMatchObject({ message: T.tags.serverMaxThree });
    expect(checkTagValues(rule(4), ['a', 'a'])).toMatchObject({ index: 1, message: T.tags.serverUnique });
  });
});
