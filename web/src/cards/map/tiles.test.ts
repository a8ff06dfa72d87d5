// @vitest-environment jsdom
// The map cards take their base tiles from the gateway's MAP_TILE_URL, written into the page as a meta tag.
import { afterEach, describe, expect, it } from 'vitest';
import { MAP_TILE_META, tileUrl } from './markers.js';

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
