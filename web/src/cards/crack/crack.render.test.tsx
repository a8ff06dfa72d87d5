// Render tests of the crack card with fixture payloads: what a user reads.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

describe('CRACK_CARD', () => {
  it('draws one crack per reading with its label, length and colour', async () => {
    renderCard('CRACK_CARD', {
      view: {
        unit: 'mm',
        crack_labels: ['Kolom 1', 'Kolom 2'],
        crack_lengths: [120, 60],
        crack_colors: ['#aa0000', '#00aa00'],
      },
      data: { value: [0.42, 0.1] },
    });
    const c = await screen.findByTestId('crack-0');
    expect(c.textContent).toContain(T.cardViews.crack('Kolom 1'));
    expect(c.textContent).toContain('0,42 mm');
    // no length unit of its own: the card's
    expect(c.textContent).toContain(`${T.cardViews.length} 120 mm`);
    expect(screen.getByTestId('crack-1').querySelector('path')!.getAttribute('stroke')).toBe('#00aa00');
  });

  it('prints the length in its own unit ("Panjang 100 cm", not "Panjang 100") and draws a lone crack large', async () => {
    renderCard('CRACK_CARD', {
      view: { unit: 'mm', crack_labels: ['c1'], crack_lengths: [100], crack_length_unit: 'cm' },
      data: { value: 0.3 },
    });
    const c = await screen.findByTestId('crack-0');
    expect(c.textContent).toContain(`${T.cardViews.length} 100 cm`);
    expect(c.textContent).toContain('0,30 mm');
    expect(Number(screen.getByTestId('crack-drawing').getAttribute('height'))).toBeGreaterThanOrEqual(40);
  });
});
