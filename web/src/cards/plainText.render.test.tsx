// Device and member texts in the cards React draws, and a card's title in the grid, are shown as text (issue 23).
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { noInjectedElement, PAYLOAD, renderCard, SCRIPT, setUpRenderTests, silentTransport } from './cards.test-kit.js';
import { CardSurface } from './CardSurface.js';
import { createLiveHub } from '../live/hub.js';
import { LiveDashboard } from '../dashboards/live/LiveDashboard.js';

setUpRenderTests();

describe('cards drawn by React', () => {
  it("a list card shows a device's name and text value as text", async () => {
    renderCard('LIST_CARD', {
      data: {
        table_keys: ['device_id', 'label', 'value'],
        table_data: [{ device_id: 1, label: PAYLOAD, value: SCRIPT }],
      },
    });
    const list = await screen.findByTestId('card-list');
    expect(within(list).getByText(PAYLOAD)).toBeTruthy();
    expect(within(list).getByText(SCRIPT)).toBeTruthy();
    noInjectedElement();
  });

  it('a single value card shows a text value as text', async () => {
    renderCard('SINGLE_VALUE_CARD', { view: { type: 'CUSTOM', title: PAYLOAD }, data: { value: SCRIPT } });
    expect(await screen.findByText(SCRIPT)).toBeTruthy();
    noInjectedElement();
  });

  it("a card's title in the grid is text", async () => {
    const c = { key: 'k', cat: 'SINGLE_VALUE_CARD', x: 0, y: 0, w: 1, h: 1, view: { type: 'CUSTOM', title: PAYLOAD } };
    render(
      <LiveDashboard dashboardId={9} components={[c]} hub={createLiveHub(silentTransport)}>
        <CardSurface component={c} h={2} dashboardId={9} />
      </LiveDashboard>,
    );
    expect(await screen.findByText(PAYLOAD)).toBeTruthy();
    noInjectedElement();
  });
});
