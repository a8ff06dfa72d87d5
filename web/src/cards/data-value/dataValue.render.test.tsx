// Render tests of the three values card with fixture payloads: what a user reads.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

describe('DATA_VALUE_CARD', () => {
  it('prints value_1..value_3 under their labels', async () => {
    renderCard('DATA_VALUE_CARD', {
      view: { unit: 'L', labels: ['Tangki 1', 'Tangki 2'] },
      data: { value_1: 1500, value_2: 20.5, value_3: 3 },
    });
    expect((await screen.findByTestId('data-value-1')).textContent).toBe('Tangki 11,50k L');
    expect(screen.getByTestId('data-value-2').textContent).toBe('Tangki 220,50 L');
    expect(screen.getByTestId('data-value-3').textContent).toBe(`${T.cardViews.dataValue(3)}3,00 L`);
  });
});
