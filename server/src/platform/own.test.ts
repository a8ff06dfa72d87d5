import { describe, expect, it } from 'vitest';
import { ownValue } from './own.js';

describe('ownValue', () => {
  it("finds a table's own keys and nothing Object.prototype has", () => {
    const table: Record<string, number> = { day: 1, hour: 2 };
    expect(ownValue(table, 'hour')).toBe(2);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'missing'])
      expect(ownValue(table, name)).toBeUndefined();
    expect(ownValue(undefined, 'day')).toBeUndefined();
    expect(ownValue(null, 'day')).toBeUndefined();
  });
});
