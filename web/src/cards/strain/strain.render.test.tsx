// Render tests of the strain card with fixture payloads: what a user reads.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';
import { GAUGE_MAX_PX, GAUGE_MIN_PX, gaugeThickness } from '../common/gauges.js';

setUpRenderTests();

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

  it('draws a lone gauge as thick as the card allows, over a scale in the unit (not a 10 px bar in 300 px)', async () => {
    renderCard('STRAIN_CARD', { view: { unit: 'µε' }, data: { value: 80 } });
    const bar = await screen.findByTestId('strain-bar');
    // the test kit's body is 300 px: one gauge gets the most a gauge takes
    expect(bar.style.height || getComputedStyle(bar).height).toBe(`${GAUGE_MAX_PX}px`);
    expect(screen.getByTestId('strain-scale').textContent).toBe('-80,00 µε080,00 µε');
  });
});

describe('gauge thickness', () => {
  it('shares the body among the readings, between 10 and 40 px', () => {
    expect(gaugeThickness(300, 1)).toBe(GAUGE_MAX_PX);
    expect(gaugeThickness(300, 5)).toBe(26);
    expect(gaugeThickness(120, 6)).toBe(GAUGE_MIN_PX);
  });
});
