// @vitest-environment jsdom
// The helpers every device or user text goes through before a library reads it as markup.
import { describe, expect, it } from 'vitest';
import { escapeHtml, plotlyText } from './plainText.js';
import { plotlyShown } from './plainText.test-kit.js';

const PAYLOAD = '<img src=x onerror="window.__xss=1">';

describe('escapeHtml', () => {
  it('turns a script payload into text that is shown as typed', () => {
    const el = document.createElement('div');
    el.innerHTML = escapeHtml(PAYLOAD);
    expect(el.querySelector('img')).toBeNull();
    expect(el.textContent).toBe(PAYLOAD);
  });

  it("keeps an attribute's quotes closed", () => {
    const el = document.createElement('div');
    el.innerHTML = `<span title="${escapeHtml(`" onmouseover="x' '`)}">a</span>`;
    expect(el.firstElementChild!.getAttributeNames()).toEqual(['title']);
  });
});

describe('plotlyText', () => {
  it('leaves no markup character and no template opening, and shows the original text once Plotly decodes it', () => {
    for (const s of [
      PAYLOAD,
      '<script>window.__xss=1</script>',
      'A & B "kWh"',
      'suhu %{y} °C',
      '<a href="javascript:alert(1)">x</a>',
    ]) {
      const out = plotlyText(s);
      expect(out).not.toMatch(/[<>"]|%\{/);
      expect(plotlyShown(out)).toBe(s);
    }
  });

  it('changes ordinary names not at all', () => {
    expect(plotlyText('Fase R (kW) 50%')).toBe('Fase R (kW) 50%');
  });

  it('keeps a text that looks like an entity as typed', () => {
    expect(plotlyShown(plotlyText('&lt;b&gt; &quot;'))).toBe('&lt;b&gt; &quot;');
  });
});
