// Dashboard paths from labels: readable, without underscores (menu rule), unique per application.
import { describe, expect, it } from 'vitest';
import { PATH_MAX, pathBase, uniquePath } from './paths.js';

describe('dashboard paths', () => {
  it('lowercases the label and joins words with dashes, never underscores', () => {
    expect(pathBase('Kebun Sawit — Blok 2')).toBe('kebun-sawit-blok-2');
    expect(pathBase('Energi_Gedung A')).toBe('energi-gedung-a');
    expect(pathBase('Café Ümlaut')).toBe('cafe-umlaut');
  });
  it('gives "dashboard" for a label without letters or digits', () => {
    expect(pathBase('!!!')).toBe('dashboard');
  });
  it('keeps at most 48 characters', () => {
    expect(pathBase('a'.repeat(80))).toHaveLength(PATH_MAX);
  });
  it('adds -2, -3 … when taken, and avoids the sign-in segment', () => {
    const taken = new Set(['energi', 'energi-2']);
    expect(uniquePath('Energi', (p) => taken.has(p))).toBe('energi-3');
    expect(uniquePath('Login', () => false)).toBe('login-2');
    expect(uniquePath('b'.repeat(60), (p) => p === 'b'.repeat(48))).toBe(`${'b'.repeat(46)}-2`);
  });
});
