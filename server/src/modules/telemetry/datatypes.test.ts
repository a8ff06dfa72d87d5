import { describe, expect, it } from 'vitest';
import { INSTANT_MAX_MS } from '@sentra/contracts';
import { encodeValue, inferDatatype } from './datatypes.js';

describe('encodeValue', () => {
  it('keeps a datetime a Date can show, as epoch ms, and refuses one beyond the end of year 9999', () => {
    expect(encodeValue('datetime', 1_700_000_000_000)).toEqual({ num: 1_700_000_000_000, text: null });
    expect(encodeValue('datetime', '2026-11-22T10:00:00+07:00')).toEqual({
      num: Date.UTC(2026, 10, 22, 3),
      text: null,
    });
    expect(encodeValue('datetime', INSTANT_MAX_MS)).toEqual({ num: INSTANT_MAX_MS, text: null });
    expect(new Date(INSTANT_MAX_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
    // within JavaScript's numbers but not a time any screen or CSV can print
    expect(encodeValue('datetime', 1e17)).toBeNull();
    expect(encodeValue('datetime', -INSTANT_MAX_MS - 1)).toBeNull();
    expect(encodeValue('datetime', 'besok')).toBeNull();
  });

  it('keeps numbers finite and structured values as JSON text', () => {
    expect(encodeValue('number', Infinity)).toBeNull();
    expect(encodeValue('number', 12.5)).toEqual({ num: 12.5, text: null });
    expect(encodeValue('object', { a: [1] })).toEqual({ num: null, text: '{"a":[1]}' });
    expect(inferDatatype(true)).toBe('boolean');
  });
});
