// The policy's parts that depend on the configuration, and the console page's settings.
import { describe, expect, it } from 'vitest';
import { consolePage } from './console-page.js';
import { tileOrigin } from './map-tiles.js';
import { securityHeaders } from './security.js';

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

describe('securityHeaders', () => {
  const headersFor = (mw: ReturnType<typeof securityHeaders>, host: string | undefined) => {
    const set: Record<string, string> = {};
    const res = {
      setHeader: (name: string, value: string) => void (set[name.toLowerCase()] = value),
      removeHeader: () => {},
    };
    let nexted = false;
    mw({ headers: host === undefined ? {} : { host } } as never, res as never, () => void (nexted = true));
    expect(nexted).toBe(true);
    return set;
  };

  it("answers each request's own host in the policy, the same headers again for a host seen before", () => {
    const mw = securityHeaders();
    const first = headersFor(mw, 'sentra.contoh.id:8080');
    expect(first['content-security-policy']).toContain('connect-src');
    expect(first['content-security-policy']).toContain('ws://sentra.contoh.id:8080 wss://sentra.contoh.id:8080');
    expect(first['x-frame-options']).toBe('DENY');
    expect(first['referrer-policy']).toBe('no-referrer');
    expect(first['x-content-type-options']).toBe('nosniff');
    expect(first['cross-origin-resource-policy']).toBe('same-origin');
    expect(headersFor(mw, 'sentra.contoh.id:8080')).toEqual(first);
    const other = headersFor(mw, '127.0.0.1:9000')['content-security-policy'];
    expect(other).toContain('ws://127.0.0.1:9000');
    expect(other).not.toContain('sentra.contoh.id');
  });

  it("answers a made-up host 'self', and hosts beyond the kept ones correctly too", () => {
    const mw = securityHeaders();
    expect(headersFor(mw, 'evil;script-src *')['content-security-policy']).not.toContain('evil');
    expect(headersFor(mw, undefined)['content-security-policy']).toContain("connect-src 'self' 'self' 'self'");
    for (let i = 0; i < 40; i++)
      expect(headersFor(mw, `h${i}.contoh.id`)['content-security-policy']).toContain(`ws://h${i}.contoh.id `);
  });
});
