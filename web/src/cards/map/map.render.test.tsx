// Render tests of the map card with fixture payloads: what a user reads.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { cardElement, renderCard, stubLayout } from '../cards.test-kit.js';
import { CANVAS_MARKERS_FROM } from './markers.js';

beforeAll(() => stubLayout());
afterEach(cleanup);

describe('MAP_CARD', () => {
  it('places a marker per located device, usable without a tile server', async () => {
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
  it('groups trucks that touch into clusters with their count and online share; a handful of devices stays one by one', async () => {
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
      renderCard('MAP_CARD', { h: 4, model: { map_type: 'street' }, data: { map_marker: [...trucks, far] } });
      const map = await screen.findByTestId('map');
      await waitFor(() => expect(map.querySelectorAll('[data-testid="map-cluster"]').length).toBe(1));
      expect(map.querySelector('[data-testid="map-cluster"]')!.textContent).toBe('60');
      expect(map.getAttribute('data-clusters')).toBe('1');
    } finally {
      vi.restoreAllMocks();
    }
  });
});
