// Render tests of the crack card with fixture payloads: what a user reads.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { renderCard, stubLayout } from '../cards.test-kit.js';

beforeAll(() => stubLayout());
afterEach(cleanup);

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
    expect(c.textContent).toContain(`${T.cardViews.length} 120`);
    expect(screen.getByTestId('crack-1').querySelector('path')!.getAttribute('stroke')).toBe('#00aa00');
  });
});
