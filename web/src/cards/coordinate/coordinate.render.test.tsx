// Render tests of the coordinate card with fixture payloads: what a user reads.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

describe('COORDINATE_CARD', () => {
  it('labels its axes with units and draws every pair, the newest larger', async () => {
    renderCard('COORDINATE_CARD', {
      view: { axis_x: 'Jarak', unit_x: 'm', axis_y: 'Tinggi', unit_y: 'cm', color_dot: '#ff0000' },
      data: {
        coord_data: [
          { x: 1, y: 2, ts: 1 },
          { x: 2, y: 4, ts: 2 },
          { x: 3, y: 5, ts: 3 },
        ],
      },
    });
    expect((await screen.findByTestId('axis-x')).textContent).toBe('Jarak (m)');
    expect(screen.getByTestId('axis-y').textContent).toBe('Tinggi (cm)');
    const last = screen.getByTestId('coord-last');
    expect(last.getAttribute('r')).toBe('5');
    expect(last.getAttribute('fill')).toBe('#ff0000');
    expect(last.textContent).toBe('3,00 m, 5,00 cm');
  });
});
