// The card chrome's stylesheet: written from the theme, put in the document once.
import { afterEach, describe, expect, it } from 'vitest';
import { createTheme } from '@mui/material/styles';
import { CARD_CLASS, cardStylesheet, ensureCardStyles } from './cardStyles.js';

afterEach(() => document.getElementById('sentra-card-styles')?.remove());

describe('card styles', () => {
  it('take colours, radius and type sizes from the theme', () => {
    const t = createTheme({
      palette: { primary: { main: '#123456' }, divider: '#abcdef' },
      shape: { borderRadius: 5 },
    });
    const css = cardStylesheet(t);
    expect(css).toContain(`.${CARD_CLASS.frame}{`);
    expect(css).toMatch(/\.sentra-card\{[^}]*border:1px solid #abcdef;border-radius:10px/);
    expect(css).toMatch(/\.sentra-card-spinner\{[^}]*#123456/);
    expect(css).toMatch(new RegExp(`\\.sentra-card-title\\{[^}]*font-size:${t.typography.subtitle2.fontSize}`));
    for (const name of Object.values(CARD_CLASS)) expect(css, name).toContain(`.${name}{`);
  });

  it('are put in the document once, however many cards draw', () => {
    ensureCardStyles();
    ensureCardStyles();
    const sheets = document.querySelectorAll('#sentra-card-styles');
    expect(sheets).toHaveLength(1);
    expect(sheets[0]!.textContent).toBe(cardStylesheet());
  });
});
