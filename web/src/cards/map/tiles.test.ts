// @vitest-environment jsdom
// The map cards take their base tiles from the gateway's MAP_TILE_URL, written into the page as a meta tag.
import { afterEach, describe, expect, it } from 'vitest';
import { MAP_TILE_META, tileUrl } from './markers.js';
import { OSM_ATTRIBUTION, tileAttribution, tileEvent, type TileState } from './tiles.js';

afterEach(() => document.head.querySelectorAll(`meta[name="${MAP_TILE_META}"]`).forEach((m) => m.remove()));

function meta(content: string) {
  const m = document.createElement('meta');
  m.name = MAP_TILE_META;
  m.content = content;
  document.head.append(m);
}

describe('tileUrl', () => {
  it("is the gateway's tile URL from the page", () => {
    meta('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(tileUrl()).toBe('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png');
  });

  it('is none without the meta tag or with a value that is not an http(s) URL or a path', () => {
    expect(tileUrl()).toBeUndefined();
    meta('javascript:alert(1)');
    expect(tileUrl()).toBeUndefined();
  });
});

describe('the tile layer', () => {
  it("credits OpenStreetMap on its tiles (linked to its copyright page), no one on an operator's own server", () => {
    expect(tileAttribution('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(OSM_ATTRIBUTION);
    expect(tileAttribution('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(OSM_ATTRIBUTION);
    expect(OSM_ATTRIBUTION).toContain('href="https://www.openstreetmap.org/copyright"');
    expect(OSM_ATTRIBUTION).toContain('OpenStreetMap</a> contributors');
    expect(tileAttribution('http://tiles.lan:8081/{z}/{x}/{y}.png')).toBeUndefined();
    expect(tileAttribution('https://openstreetmap.org.evil.example/{z}/{x}/{y}.png')).toBeUndefined();
    expect(tileAttribution('/tiles/{z}/{x}/{y}.png')).toBeUndefined();
  });

  it('falls back to the bundled layer when the first tile fails before any loaded (offline), for good', () => {
    const run = (events: ('load' | 'error')[]) => events.reduce<TileState>(tileEvent, 'waiting');
    expect(run(['error'])).toBe('fallback');
    expect(run(['error', 'load'])).toBe('fallback');
    expect(run(['load'])).toBe('tiles');
    expect(run(['load', 'load'])).toBe('tiles');
    // some tiles loaded, then some failed: the bundled layer shows through the holes, the tiles stay
    expect(run(['load', 'error'])).toBe('holes');
    expect(run(['load', 'error', 'load'])).toBe('holes');
  });
});
