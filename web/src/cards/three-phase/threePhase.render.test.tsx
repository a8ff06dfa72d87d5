// Render tests of the three phase card with fixture payloads: what a user reads.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

describe('THREE_PHASE_CARD', () => {
  it('prints phases R, S, T with the unit and dims a phase without reading', async () => {
    renderCard('THREE_PHASE_CARD', {
      view: { type: 'VOLT' },
      data: { value_1: 220.1, value_2: 219.5, value_3: null, status_1: true, status_2: true, status_3: false },
    });
    const r = await screen.findByTestId('phase-1');
    expect(r.textContent).toBe(`${T.cardViews.phase(1)}220,10 V`);
    expect(screen.getByTestId('phase-2').textContent).toContain('219,50 V');
    expect(screen.getByTestId('phase-3').textContent).toContain('-');
    expect(getComputedStyle(screen.getByTestId('phase-3')).opacity).toBe('0.45');
  });
});
