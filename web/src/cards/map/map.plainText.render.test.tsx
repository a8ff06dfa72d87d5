// A device's texts on the map card are shown as text (issue 23): a label or value never becomes an element.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { cardElement, noInjectedElement, PAYLOAD, renderCard, SCRIPT, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

describe('MAP_CARD marker', () => {
  const data = {
    map_marker: [{ device_id: 1, label: PAYLOAD, latitude: -6.2, longitude: 106.8, online: true, value: SCRIPT }],
  };

  it("tooltip shows a device's label and the text value it sent as text", async () => {
    renderCard('MAP_CARD', { h: 4, model: { map_type: 'street' }, data });
    const map = await screen.findByTestId('map');
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(1));
    fireEvent.mouseOver(map.querySelector('path.leaflet-interactive')!);
    const tip = await waitFor(() => document.querySelector('.leaflet-tooltip')!);
    expect(tip.textContent).toBe(`${PAYLOAD}: ${SCRIPT}`);
    noInjectedElement();
  });

  it('popup shows the label and value as text', async () => {
    renderCard('MAP_CARD', { h: 4, model: { map_type: 'street' }, data });
    const map = await screen.findByTestId('map');
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(1));
    fireEvent.click(map.querySelector('path.leaflet-interactive')!);
    const popup = await waitFor(() => document.querySelector('.leaflet-popup-content')!);
    expect(popup.querySelector('[data-testid="map-popup-label"]')!.textContent).toBe(PAYLOAD);
    expect(popup.textContent).toContain(SCRIPT);
    noInjectedElement();
  });

  it('tooltip updated by a push stays text', async () => {
    const component = { h: 4, model: { map_type: 'street' } };
    const { rerender } = renderCard('MAP_CARD', {
      ...component,
      data: { map_marker: [{ device_id: 1, label: 'SPBU 1', latitude: -6.2, longitude: 106.8 }] },
    });
    const map = await screen.findByTestId('map');
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(1));
    rerender(cardElement('MAP_CARD', { ...component, data }));
    fireEvent.mouseOver(map.querySelector('path.leaflet-interactive')!);
    await waitFor(() => expect(document.querySelector('.leaflet-tooltip')!.textContent).toBe(`${PAYLOAD}: ${SCRIPT}`));
    noInjectedElement();
  });
});
