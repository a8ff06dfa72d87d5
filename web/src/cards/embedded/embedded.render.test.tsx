// Render tests of the embedded dashboard card: what a user reads.
import { describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

describe('EMBEDDED_DASHBOARD', () => {
  it('frames an http(s) address and refuses others', async () => {
    renderCard('EMBEDDED_DASHBOARD', { view: { url: 'https://grafana.example/d/x' } });
    expect((await screen.findByTestId('card-frame')).getAttribute('src')).toBe('https://grafana.example/d/x');
    cleanup();
    renderCard('EMBEDDED_DASHBOARD', { view: { url: 'javascript:alert(1)' } });
    expect(await screen.findByText(T.cardViews.noEmbeddedUrl)).toBeTruthy();
  });
});
