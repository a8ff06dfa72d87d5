// Render tests of the strain card with fixture payloads: what a user reads.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { renderCard, stubLayout } from '../cards.test-kit.js';

beforeAll(() => stubLayout());
afterEach(cleanup);

describe('STRAIN_CARD', () => {
  it('draws one gauge per reading with its label, curve and colour', async () => {
    renderCard('STRAIN_CARD', {
      view: {
        unit: 'µε',
        strain_labels: ['Balok A', 'Balok B'],
        strain_curves: ['linear', 'log'],
        strain_colors: ['#123456'],
      },
      data: { value: { g1: 120.5, g2: -40 } },
    });
    const a = await screen.findByTestId('strain-0');
    expect(a.textContent).toContain(T.cardViews.strain('Balok A'));
    expect(a.textContent).toContain('120,50 µε');
    expect(a.querySelector('[data-color]')!.getAttribute('data-color')).toBe('#123456');
    expect(screen.getByTestId('strain-1').textContent).toContain('log');
    expect(screen.getByTestId('strain-1').textContent).toContain('-40,00 µε');
  });
});
