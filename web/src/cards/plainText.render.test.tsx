// Device and member texts in the cards are shown as text (issue 23): the payload below as a device's label, the
// value it sent, a card title, a chart's names and labels never becomes an element, and a user reads it as typed.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { cardElement, renderCard, silentTransport, stubLayout } from './cards.test-kit.js';
import { buildFigure } from './chart/series.js';
import { CardSurface } from './CardSurface.js';
import { createLiveHub } from '../live/hub.js';
import { LiveDashboard } from '../dashboards/live/LiveDashboard.js';
import { plotlyShown } from '../ui/plainText.test-kit.js';

const PAYLOAD = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=1</script>';

beforeAll(() => stubLayout());
afterEach(cleanup);

/** No element a payload could have made, anywhere in the document. */
function noInjectedElement() {
  expect(document.querySelector('img[src="x"], img[onerror], script')).toBeNull();
}

describe('MAP_CARD marker', () => {
  const data = { map_marker: [{ device_id: 1, label: PAYLOAD, latitude: -6.2, longitude: 106.8, online: true, value: SCRIPT }] };

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
    expect(popup.querySelector('b')!.textContent).toBe(PAYLOAD);
    expect(popup.textContent).toContain(SCRIPT);
    noInjectedElement();
  });

  it('tooltip updated by a push stays text', async () => {
    const component = { h: 4, model: { map_type: 'street' } };
    const { rerender } = renderCard('MAP_CARD', { ...component, data: { map_marker: [{ device_id: 1, label: 'SPBU 1', latitude: -6.2, longitude: 106.8 }] } });
    const map = await screen.findByTestId('map');
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(1));
    rerender(cardElement('MAP_CARD', { ...component, data }));
    fireEvent.mouseOver(map.querySelector('path.leaflet-interactive')!);
    await waitFor(() => expect(document.querySelector('.leaflet-tooltip')!.textContent).toBe(`${PAYLOAD}: ${SCRIPT}`));
    noInjectedElement();
  });
});

describe('chart cards (Plotly strings)', () => {
  const rows = [{ ts: Date.UTC(2024, 2, 10, 8), [PAYLOAD]: 1 }, { ts: Date.UTC(2024, 2, 10, 9), [PAYLOAD]: 2 }];
  const markup = /[<>"]|%\{/;

  it('series names from a device, axis titles, unit and reference label carry no markup and read as typed', () => {
    const view = { xlabel: PAYLOAD, ylabel: SCRIPT, graph_unit: '%{y}<b>', reference_line_value: 5, reference_line_label: PAYLOAD };
    const fig = buildFigure('LINE_CHART_CARD', { key: 'c', cat: 'LINE_CHART_CARD', success: true, chart_keys: [PAYLOAD], chart_data: rows } as never, view);
    const texts = [fig.traces[0]!.name, fig.layout.xaxis.title.text, fig.layout.yaxis.title.text, fig.layout.yaxis.ticksuffix, fig.layout.annotations[0].text] as string[];
    for (const t of texts) expect(t).not.toMatch(markup);
    expect(texts.map(plotlyShown)).toEqual([PAYLOAD, PAYLOAD, SCRIPT, ' %{y}<b>', PAYLOAD]);
  });

  it("a series' label set in the card and a pie's slice names from the device read as typed", () => {
    const line = buildFigure('LINE_CHART_CARD', { key: 'c', cat: 'LINE_CHART_CARD', success: true, chart_keys: ['r'], chart_data: [{ ts: 1, r: 1 }] } as never, { labels: { r: SCRIPT } });
    expect(line.traces[0]!.name).not.toMatch(markup);
    expect(plotlyShown(line.traces[0]!.name as string)).toBe(SCRIPT);
    const pie = buildFigure('PIE_CHART_CARD', { key: 'c', cat: 'PIE_CHART_CARD', success: true, chart_data: [{ key: PAYLOAD, value: 3 }, { key: 'b', value: 1 }] } as never, { labels: { b: SCRIPT } });
    const labels = pie.traces[0]!.labels as string[];
    for (const l of labels) expect(l).not.toMatch(markup);
    expect(labels.map(plotlyShown)).toEqual([PAYLOAD, SCRIPT]);
  });
});

describe('cards drawn by React', () => {
  it("a list card shows a device's name and text value as text", async () => {
    renderCard('LIST_CARD', { data: { table_keys: ['device_id', 'label', 'value'], table_data: [{ device_id: 1, label: PAYLOAD, value: SCRIPT }] } });
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
