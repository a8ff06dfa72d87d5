// What a date card sends is what its field shows; the field's locale follows the card's.
import { describe, expect, it } from 'vitest';
import { dateDisplayFormat, pickerLocale, toShownPrecision } from './commandValues.js';

describe('toShownPrecision', () => {
  const at = new Date(2026, 10, 22, 9, 30, 41, 512).getTime();
  it('drops the seconds a minutes-only field does not show', () => {
    expect(new Date(toShownPrecision(at, 'DD MMM YYYY HH:mm')).toTimeString().slice(0, 8)).toBe('09:30:00');
  });
  it('keeps whole seconds when the field shows them', () => {
    expect(toShownPrecision(at, 'DD/MM/YYYY HH:mm:ss')).toBe(new Date(2026, 10, 22, 9, 30, 41).getTime());
  });
  it('is midnight for a date-only field, and ignores letters in [brackets]', () => {
    expect(toShownPrecision(at, 'DD MMM YYYY')).toBe(new Date(2026, 10, 22).getTime());
    expect(toShownPrecision(at, '[Jam] DD-MM-YYYY')).toBe(new Date(2026, 10, 22).getTime());
  });
  it("follows the card's own format", () => {
    expect(toShownPrecision(at, dateDisplayFormat({}))).toBe(new Date(2026, 10, 22, 9, 30).getTime());
  });
});

describe('pickerLocale', () => {
  it('is Indonesian unless the card is English', () => {
    expect(pickerLocale('id-ID')).toBe('id');
    expect(pickerLocale(undefined)).toBe('id');
    expect(pickerLocale('en-US')).toBe('en');
    expect(pickerLocale('en')).toBe('en');
    expect(pickerLocale('de-DE')).toBe('id');
  });
});
