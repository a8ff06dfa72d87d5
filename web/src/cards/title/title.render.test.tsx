// Render tests of the title card: what a user reads.
import { describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

describe('TITLE', () => {
  it("shows 'Title' by default, the card's text and the device fact it reads", async () => {
    renderCard('TITLE', { view: {} });
    expect((await screen.findByTestId('card-title')).textContent).toBe('Title');
    cleanup();
    renderCard('TITLE', { view: { title: 'Gedung A' }, data: { value: 'SN-0042' } });
    expect((await screen.findByTestId('card-title')).textContent).toBe('Gedung A');
    expect(screen.getByTestId('card-value').textContent).toBe('SN-0042');
  });
});
