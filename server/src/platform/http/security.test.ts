// The policy's parts that depend on the configuration, and the console page's settings.
import { describe, expect, it } from 'vitest';
import { consolePage } from './console-page.js';
import { tileOrigin } from './map-tiles.js';

describe('tileOrigin', () => {
  it('is the origin the tiles come from, a {s} subdomain as a wildcard', () => {
    expect(tileOrigin('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://*.tile.openstreetmap.org');
    expect(tileOrigin('http://tiles.lan:8081/{z}/{x}/{y}.png')).toBe('http://tiles.lan:8081');
  });

  it("is none for tiles on the gateway ('self' covers them) or no tiles", () => {
    expect(tileOrigin('/tiles/{z}/{x}/{y}.png')).toBeUndefined();
    expect(tileOrigin(undefined)).toBeUndefined();
  });
});

describe('consolePage', () => {
  const page = '<!doctype html><html><head><title>Sentra</title></head><body></body></html>';

  it('adds the tile URL as a meta tag at the end of the head, escaped', () => {
    expect(consolePage(page, { mapTileUrl: 'https://t.example/{z}/{x}/{y}.png?a=1&b=2' })).toBe(
      '<!doctype html><html><head><title>Sentra</title><meta name="sentra-map-tile-url" content="https://t.example/{z}/{x}/{y}.png?a=1&amp;b=2" /></head><body></body></html>',
    );
  });

  it('leaves the page as built without a tile URL', () => {
    expect(consolePage(page)).toBe(page);
  });
});
