// The gateway's security headers (issue 23): a strict Content-Security-Policy, no framing, no MIME sniffing and no
// referrer on the console's page, its scripts, the API and its errors; the base-map tile origin from MAP_TILE_URL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.js';
import { tileOrigin } from '../src/platform/http/map-tiles.js';
import { startGateway, type Running } from './harness.js';

const TILES = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';
let gw: Running;
let web: string;

beforeAll(async () => {
  // a built console in miniature: its page and one hashed script
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-web-'));
  fs.mkdirSync(path.join(web, 'assets'));
  fs.writeFileSync(
    path.join(web, 'index.html'),
    '<!doctype html><html><head><title>Sentra</title><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(web, 'assets', 'index-abc.js'), 'console.log(1)');
  gw = await startGateway({ WEB_DIST: web, MAP_TILE_URL: TILES });
});
afterAll(async () => {
  await gw?.stop();
  fs.rmSync(web, { recursive: true, force: true });
});

/** The policy's directives by name. */
function policy(res: Response): Map<string, string[]> {
  const csp = res.headers.get('content-security-policy');
  expect(csp).toBeTruthy();
  return new Map(
    csp!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectSecurityHeaders(res: Response) {
  const p = policy(res);
  const host = new URL(gw.url).host;
  expect(p.get('default-src')).toEqual(["'self'"]);
  expect(p.get('script-src')).toEqual(["'self'"]);
  expect(p.get('script-src-attr')).toEqual(["'none'"]);
  expect(p.get('object-src')).toEqual(["'none'"]);
  expect(p.get('base-uri')).toEqual(["'self'"]);
  expect(p.get('frame-ancestors')).toEqual(["'none'"]);
  expect(p.get('img-src')).toEqual(
    expect.arrayContaining(["'self'", 'data:', 'blob:', 'https://*.tile.openstreetmap.org']),
  );
  expect(p.get('connect-src')).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
  for (const [name, sources] of p)
    if (name.startsWith('script')) expect(sources.join(' ')).not.toMatch(/unsafe-inline|unsafe-eval|\*|data:|blob:/);
  expect(p.has('upgrade-insecure-requests')).toBe(false); // the console is served over plain HTTP on a LAN too
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('strict-transport-security')).toBeNull();
  expect(res.headers.get('x-powered-by')).toBeNull();
}

describe('security headers', () => {
  it("on the console's page, which names the map tile URL for the map cards", async () => {
    const res = await fetch(`${gw.url}/admin/login`);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    const html = await res.text();
    expect(html).toContain(
      '<meta name="sentra-map-tile-url" content="https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png" />',
    );
    expect(html).toContain('<script type="module" src="/assets/index-abc.js">');
    // asked by its file name, the page carries its settings too
    expect(await (await fetch(`${gw.url}/index.html`)).text()).toBe(html);
  });

  it("on the console's scripts", async () => {
    const res = await fetch(`${gw.url}/assets/index-abc.js`);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
  });

  it('on API answers, an unknown API path and a body that is not JSON', async () => {
    const openapi = await fetch(`${gw.url}/service/web/openapi.json`);
    expect(openapi.status).toBe(200);
    expectSecurityHeaders(openapi);
    const unknown = await fetch(`${gw.url}/service/web/no-such-call`);
    expect(unknown.status).toBe(404);
    expectSecurityHeaders(unknown);
    const bad = await fetch(`${gw.url}/service/web/no-such-call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expectSecurityHeaders(bad);
  });

  it('never copies a forged Host header into the policy', async () => {
    const http = await import('node:http');
    const { port } = new URL(gw.url);
    const csp = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/admin/login',
          headers: { host: "evil.example; script-src 'unsafe-inline'" },
        },
        (res) => {
          res.resume();
          resolve(String(res.headers['content-security-policy']));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(csp).not.toContain('evil');
    expect(csp).toMatch(/script-src 'self';/);
  });
});

describe('MAP_TILE_URL', () => {
  it('accepts an http(s) tile template or a path on the gateway', () => {
    for (const v of [TILES, 'http://tiles.lan:8081/{z}/{x}/{y}.png', '/tiles/{z}/{x}/{y}.png'])
      expect(loadConfig({ MAP_TILE_URL: v }).MAP_TILE_URL).toBe(v);
  });

  it("defaults to OpenStreetMap's standard tiles, whose origin the policy then allows; off keeps every map inside", () => {
    expect(loadConfig({}).MAP_TILE_URL).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(tileOrigin(loadConfig({}).MAP_TILE_URL)).toBe('https://tile.openstreetmap.org');
    expect(loadConfig({ MAP_TILE_URL: 'off' }).MAP_TILE_URL).toBeUndefined();
  });

  it('stops the gateway with a message naming the variable for anything else', () => {
    for (const v of [
      'javascript:alert(1)',
      'ftp://tiles.example/{z}',
      'https://a.example/x" onerror="1',
      "https://a.example; script-src 'unsafe-inline'",
      'tiles/{z}',
    ])
      expect(() => loadConfig({ MAP_TILE_URL: v })).toThrow(/MAP_TILE_URL/);
  });
});
