// @vitest-environment jsdom
// A canvas redraw frame that runs after its map was removed is skipped instead of throwing (canvasTeardown.ts).
import { describe, expect, it, vi } from 'vitest';
import L from 'leaflet';
import './canvasTeardown.js';

describe('the canvas renderer after its map is removed', () => {
  it('skips a late redraw frame, and draws again once added back', () => {
    const fills: number[] = [];
    const ctx = new Proxy({} as Record<string | symbol, unknown>, {
      get: (target, prop) => (prop in target ? target[prop] : prop === 'fill' ? () => fills.push(1) : () => undefined),
      set: (target, prop, value) => ((target[prop] = value), true),
    });
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => ctx) as never);
    try {
      const host = document.createElement('div');
      document.body.append(host);
      const map = L.map(host).setView([-6.2, 106.8], 10);
      const renderer = L.canvas();
      L.circleMarker([-6.2, 106.8], { renderer }).addTo(map);
      const internals = renderer as unknown as { _redraw(): void; _redrawRequest: number | null };
      map.remove();
      // the frame Leaflet had requested before the removal runs anyway
      expect(() => internals._redraw()).not.toThrow();
      expect(internals._redrawRequest).toBeNull();
      // added back to a new map, it draws its circle
      const again = L.map(document.body.appendChild(document.createElement('div'))).setView([-6.2, 106.8], 10);
      fills.length = 0;
      L.circleMarker([-6.2, 106.8], { renderer }).addTo(again);
      internals._redraw();
      expect(fills.length).toBeGreaterThan(0);
      again.remove();
    } finally {
      vi.restoreAllMocks();
    }
  });
});
