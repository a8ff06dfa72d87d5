// Render tests of the picture card with fixture payloads: what a user reads.
import { describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

describe('SINGLE_IMAGE_CARD', () => {
  it("shows the device's picture, else the card's own", async () => {
    renderCard('SINGLE_IMAGE_CARD', { data: { value: 'https://cam.example/snap.jpg' } });
    expect((await screen.findByTestId('card-image')).getAttribute('src')).toBe('https://cam.example/snap.jpg');
    cleanup();
    renderCard('SINGLE_IMAGE_CARD', { view: { pict: '/denah.png' }, data: { value: null } });
    expect((await screen.findByTestId('card-image')).getAttribute('src')).toBe('/denah.png');
    cleanup();
    renderCard('SINGLE_IMAGE_CARD', { data: {} });
    expect(await screen.findByText(T.cardViews.noImage)).toBeTruthy();
  });
});
