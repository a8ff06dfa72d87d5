// Render tests of the map card with fixture payloads: what a user reads.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { DeviceLinksContext } from '../common/deviceLinks.js';
import { cardElement, renderCard, stubLayout } from '../cards.test-kit.js';
import { CANVAS_MARKERS_FROM } from './markers.js';

beforeAll(() => stubLayout());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** Leaflet sizes the map by its container's client size, which jsdom leaves at 0 (a map of no size fits at zoom 1). */
function sizedMaps(width = 960, height = 640) {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(width);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(height);
}

describe('MAP_CARD', () => {
  it('places a marker per located device, usable without a tile server', async () => {
    sizedMaps();
    renderCard('MAP_CARD', {
      h: 4,
      model: { map_type: 'street' },
      data: {
        map_marker: [
          { device_id: 1, label: 'SPBU 1', latitude: -6.2, longitude: 106.8, online: true, value: 12 },
          { device_id: 2, label: 'SPBU 2', latitude: -6.3, longitude: 106.9, online: false },
          { device_id: 3, label: 'no gps' },
        ],
      },
    });
    const map = await screen.findByTestId('map');
    expect(map.getAttribute('data-markers')).toBe('2');
    // the map itself is made after the first paint
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(2));
    const paths = map.querySelectorAll('path.leaflet-interactive');
    expect([...paths].map((p) => p.getAttribute('fill'))).toEqual(['#2e7d32', '#9e9e9e']);
    expect(map.querySelectorAll('img.leaflet-tile').length).toBe(0);
  });

  it('moves, restyles, adds and removes markers in place when a push comes', async () => {
    sizedMaps();
    const component = { model: { map_type: 'street' }, h: 4 };
    const first = {
      map_marker: [
        { device_id: 1, label: 'SPBU 1', latitude: -6.2, longitude: 106.8, online: true },
        { device_id: 2, label: 'SPBU 2', latitude: -6.3, longitude: 106.9, online: true },
      ],
    };
    const { rerender } = renderCard('MAP_CARD', { ...component, data: first });
    const map = await screen.findByTestId('map');
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(2));
    const before = [...map.querySelectorAll('path.leaflet-interactive')];
    // device 1 went offline and moved, device 2 left the card, device 3 joined
    const next = {
      map_marker: [
        { device_id: 1, label: 'SPBU 1', latitude: -6.25, longitude: 106.85, online: false },
        { device_id: 3, label: 'SPBU 3', latitude: -6.4, longitude: 107, online: true },
      ],
    };
    rerender(cardElement('MAP_CARD', { ...component, data: next }));
    await waitFor(() =>
      expect(map.querySelectorAll('path.leaflet-interactive')[0]!.getAttribute('fill')).toBe('#9e9e9e'),
    );
    const after = [...map.querySelectorAll('path.leaflet-interactive')];
    expect(after).toHaveLength(2);
    expect(after[0]).toBe(before[0]); // the same circle, restyled
    expect(after).not.toContain(before[1]);
    expect(after[1]!.getAttribute('fill')).toBe('#2e7d32');
  });

  it('paints a large fleet on one canvas (no element per marker), restyling in place when a push comes', async () => {
    // jsdom has no 2D context: a recording one stands in (every fill of a circle: where, how large, which colour)
    const fills: { x: number; y: number; r: number; fill: string }[] = [];
    let arc: [number, number, number] | undefined;
    const ctx = new Proxy({} as Record<string | symbol, unknown>, {
      get: (target, prop) => {
        if (prop in target) return target[prop];
        if (prop === 'arc') return (x: number, y: number, r: number) => void (arc = [x, y, r]);
        if (prop === 'fill')
          return () => void (arc && fills.push({ x: arc[0], y: arc[1], r: arc[2], fill: String(target.fillStyle) }));
        return () => undefined;
      },
      set: (target, prop, value) => ((target[prop] = value), true),
    });
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => ctx) as never);
    // Leaflet sizes the map (and so what the canvas covers) by the container's client size, which jsdom leaves at 0
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(960);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640);
    try {
      const n = CANVAS_MARKERS_FROM + 10;
      // a fleet spread over a grid 1° apart (≥ 45 px at the fitted zoom): a dense fleet clusters only what touches, so
      // here every truck is its own circle (clustering: clusters.test.ts)
      const fleet = (offline: number) => ({
        map_marker: Array.from({ length: n }, (_, i) => ({
          device_id: i + 1,
          label: `Truk ${i + 1}`,
          latitude: -2 - Math.floor(i / 10),
          longitude: 100 + (i % 10),
          online: i !== offline,
        })),
      });
      const component = { model: { map_type: 'street' }, h: 4 };
      const { rerender } = renderCard('MAP_CARD', { ...component, data: fleet(-1) });
      const map = await screen.findByTestId('map');
      expect(map.getAttribute('data-markers')).toBe(String(n));
      await waitFor(() => expect(new Set(fills.map((f) => `${f.x},${f.y}`)).size).toBe(n));
      const fifth = `${fills[4]!.x},${fills[4]!.y}`;
      expect(map.querySelectorAll('canvas').length).toBe(1);
      expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(0);
      expect(new Set(fills.map((f) => f.fill))).toEqual(new Set(['#2e7d32']));
      expect(fills.every((f) => f.r === 8)).toBe(true);
      // truck 5 goes offline: drawn grey, the others still green, still one canvas
      fills.length = 0;
      rerender(cardElement('MAP_CARD', { ...component, data: fleet(4) }));
      await waitFor(() => expect(fills.some((f) => f.fill === '#9e9e9e')).toBe(true));
      expect(map.querySelectorAll('canvas').length).toBe(1);
      // the grey circle is truck 5's, where it was first drawn green
      expect(new Set(fills.filter((f) => f.fill === '#9e9e9e').map((f) => `${f.x},${f.y}`))).toEqual(new Set([fifth]));
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('MAP_CARD with a dense fleet (issue 28)', () => {
  it('groups trucks that touch into clusters with their count and online share; one far away stays alone', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
      (() => new Proxy({}, { get: () => () => undefined })) as never,
    );
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(480);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(320);
    try {
      // 60 trucks within ~1 km of each other in Jakarta, 20 of them online, and one far away in Surabaya
      const trucks = Array.from({ length: 60 }, (_, i) => ({
        device_id: i + 1,
        label: `Truk ${i + 1}`,
        latitude: -6.2 + (i % 6) * 0.001,
        longitude: 106.8 + Math.floor(i / 6) * 0.001,
        online: i < 20,
      }));
      const far = { device_id: 99, label: 'Truk Surabaya', latitude: -7.25, longitude: 112.75, online: true };
      const component = { h: 4, model: { map_type: 'street' } };
      const { rerender } = renderCard('MAP_CARD', { ...component, data: { map_marker: [...trucks, far] } });
      const map = await screen.findByTestId('map');
      await waitFor(() => expect(map.querySelectorAll('[data-testid="map-cluster"]').length).toBe(1));
      expect(map.querySelector('[data-testid="map-cluster"]')!.textContent).toBe('60');
      expect(map.getAttribute('data-clusters')).toBe('1');
      // drawn again once the map fitted its markers (Jakarta to Surabaya at this size: zoom 6, from the first draw's 4)
      await waitFor(() => expect(map.getAttribute('data-zoom')).toBe('6'));
      const badge = map.querySelector('.sentra-map-cluster')!;
      // a live push keeps the badge (a pointer on it keeps its tooltip): the same element, given its new look in place
      const push = (online: number) =>
        rerender(
          cardElement('MAP_CARD', {
            ...component,
            data: { map_marker: [...trucks.map((t, i) => ({ ...t, online: i < online })), far] },
          }),
        );
      push(20);
      push(40);
      await waitFor(() => expect(map.querySelectorAll('.sentra-map-cluster')).toHaveLength(1));
      expect(map.querySelector('.sentra-map-cluster')).toBe(badge);
      expect(badge.textContent).toBe('60');
      // all offline: grey, still the same badge
      push(0);
      await waitFor(() =>
        expect((badge.querySelector('[data-testid="map-cluster"]') as HTMLElement).style.background).toBe(
          'rgb(158, 158, 158)',
        ),
      );
      expect(map.querySelector('.sentra-map-cluster')).toBe(badge);
      // the trucks spread out (no cluster any more): the badge goes
      rerender(
        cardElement('MAP_CARD', {
          ...component,
          data: { map_marker: trucks.map((t, i) => ({ ...t, latitude: -6.2 + i, longitude: 100 + i })) },
        }),
      );
      await waitFor(() => expect(map.querySelectorAll('.sentra-map-cluster')).toHaveLength(0));
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('MAP_CARD on first show and its popups (issue 38)', () => {
  const vans = Array.from({ length: 25 }, (_, i) => ({
    device_id: 100 + i,
    label: `Van ${i + 1}`,
    // 25 vans in one depot, a few metres apart
    latitude: -6.2 + (i % 5) * 0.00005,
    longitude: 106.8 + Math.floor(i / 5) * 0.00005,
    online: i !== 0,
  }));
  const elsewhere = { device_id: 7, label: 'Van Bandung', latitude: -6.9, longitude: 107.6, online: true };

  it('fits its markers and shows the vans of one depot as one cluster saying 25 (not one blob of circles)', async () => {
    sizedMaps(480, 320);
    renderCard('MAP_CARD', { h: 4, model: { map_type: 'street' }, data: { map_marker: [...vans, elsewhere] } });
    const map = await screen.findByTestId('map');
    // once fitted (the first draw is at the whole country's zoom, where Bandung joins them)
    await waitFor(() =>
      expect([...map.querySelectorAll('[data-testid="map-cluster"]')].map((c) => c.textContent)).toEqual(['25']),
    );
    // Bandung alone: its own circle
    expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(1);
  });

  it("pops up the card's value and status with its unit, where the device is, when it reported and a link to it", async () => {
    sizedMaps();
    const opened: number[] = [];
    const links = (id: number) => ({ href: `/admin/kebun/_device_data_detail_/${id}`, open: () => opened.push(id) });
    const time = new Date(2026, 11, 6, 9, 5, 7).getTime();
    render(
      <DeviceLinksContext.Provider value={links}>
        {cardElement('MAP_CARD', {
          h: 4,
          model: { map_type: 'street' },
          view: { unit: 'km/j', decimal: 0 },
          data: {
            map_marker: [
              {
                device_id: 42,
                label: 'Van 1',
                latitude: -6.2,
                longitude: 106.8,
                online: true,
                value: 36.4,
                status: 'jalan',
                time,
              },
            ],
          },
        })}
      </DeviceLinksContext.Provider>,
    );
    const map = await screen.findByTestId('map');
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(1));
    fireEvent.click(map.querySelector('path.leaflet-interactive')!);
    const popup = await waitFor(() => document.querySelector<HTMLElement>('[data-testid="map-popup"]')!);
    const text = (id: string) => popup.querySelector(`[data-testid="${id}"]`)?.textContent;
    expect(text('map-popup-label')).toBe('Van 1');
    expect(text('map-popup-online')).toBe(T.cardViews.online);
    expect(text('map-popup-value')).toBe('Nilai: 36 km/j');
    expect(text('map-popup-status')).toBe('Status: jalan');
    expect(text('map-popup-location')).toBe('Lokasi: -6,20000, 106,80000');
    expect(text('map-popup-time')).toBe(T.cardViews.updatedAt('09:05:07, 06 Des 26'));
    const link = popup.querySelector<HTMLAnchorElement>('[data-testid="map-popup-device"]')!;
    expect(link.textContent).toBe(T.cardViews.mapOpenDevice);
    expect(link.getAttribute('href')).toBe('/admin/kebun/_device_data_detail_/42');
    fireEvent.click(link);
    expect(opened).toEqual([42]);
  });

  it('shows no device link where the screen gives none (the editor preview, a role without device screens)', async () => {
    sizedMaps();
    renderCard('MAP_CARD', {
      h: 4,
      model: { map_type: 'street' },
      data: { map_marker: [{ device_id: 42, label: 'Van 1', latitude: -6.2, longitude: 106.8 }] },
    });
    const map = await screen.findByTestId('map');
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(1));
    fireEvent.click(map.querySelector('path.leaflet-interactive')!);
    const popup = await waitFor(() => document.querySelector<HTMLElement>('[data-testid="map-popup"]')!);
    expect(popup.querySelector('[data-testid="map-popup-device"]')).toBeNull();
    expect(popup.querySelector('[data-testid="map-popup-time"]')).toBeNull();
  });
});
