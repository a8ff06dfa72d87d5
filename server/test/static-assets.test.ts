// The console's assets precompressed and cached (issue 28): the gateway answers a hashed script or style as the build's
// brotli or gzip copy by the browser's Accept-Encoding (plain otherwise), cacheable for a year; the console page is
// compressed too but revalidated on every load, and keeps its map setting and its security headers.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Running } from './harness.js';

const TILES = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';
const IMMUTABLE = 'public, max-age=31536000, immutable';
// a script worth compressing, as the build writes it: the file, and its .br and .gz copies beside it
const SCRIPT = Array.from({ length: 400 }, (_, i) => `export const kartu${i} = "Daya semua panel ${i}";`).join('\n');
let gw: Running;
let web: string;

beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-web-'));
  const assets = path.join(web, 'assets');
  fs.mkdirSync(assets);
  fs.writeFileSync(
    path.join(web, 'index.html'),
    '<!doctype html><html><head><title>Sentra</title><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(assets, 'index-abc.js'), SCRIPT);
  fs.writeFileSync(path.join(assets, 'index-abc.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(assets, 'index-abc.js.gz'), zlib.gzipSync(SCRIPT));
  // too small to be worth compressing: the build wrote no copies
  fs.writeFileSync(path.join(assets, 'tiny-def.css'), 'body{margin:0}');
  gw = await startGateway({ WEB_DIST: web, MAP_TILE_URL: TILES });
});
afterAll(async () => {
  await gw?.stop();
  fs.rmSync(web, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** the bytes as sent (not decoded) */
  body: Buffer;
}

/** A raw HTTP request with exactly the Accept-Encoding given (fetch would add its own and decode the answer). */
function get(urlPath: string, acceptEncoding?: string, method = 'GET'): Promise<Answer> {
  const headers: Record<string, string> = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  return new Promise((resolve, reject) => {
    const req = http.request(`${gw.url}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

function expectCachedForAYear(a: Answer) {
  expect(a.status).toBe(200);
  expect(a.headers['cache-control']).toBe(IMMUTABLE);
  expect(a.headers.vary).toMatch(/accept-encoding/i);
  expect(a.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(a.headers['content-length']).toBe(String(a.body.length));
}

describe('hashed console assets, precompressed', () => {
  it('answers the brotli copy to a browser that accepts br, smaller than the script', async () => {
    const a = await get('/assets/index-abc.js', 'gzip, deflate, br, zstd');
    expectCachedForAYear(a);
    expect(a.headers['content-encoding']).toBe('br');
    expect(a.body.length).toBeLessThan(SCRIPT.length / 3);
    expect(zlib.brotliDecompressSync(a.body).toString()).toBe(SCRIPT);
  });

  it('answers the gzip copy to a client that accepts only gzip, or prefers it by q-value', async () => {
    for (const accept of ['gzip', 'br;q=0.5, gzip;q=1', 'gzip, br;q=0']) {
      const a = await get('/assets/index-abc.js', accept);
      expectCachedForAYear(a);
      expect(a.headers['content-encoding'], accept).toBe('gzip');
      expect(zlib.gunzipSync(a.body).toString()).toBe(SCRIPT);
    }
  });

  it('answers the plain script without Accept-Encoding, with identity, or when no coding is acceptable', async () => {
    for (const accept of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const a = await get('/assets/index-abc.js', accept);
      expectCachedForAYear(a);
      expect(a.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(a.body.toString()).toBe(SCRIPT);
    }
  });

  it('answers a style the build left uncompressed as it is, still cached for a year', async () => {
    const a = await get('/assets/tiny-def.css', 'gzip, deflate, br');
    expect(a.status).toBe(200);
    expect(a.headers['content-encoding']).toBeUndefined();
    expect(a.headers['cache-control']).toBe(IMMUTABLE);
    expect(a.body.toString()).toBe('body{margin:0}');
  });

  it('answers HEAD with the length of the copy it would send and no body', async () => {
    const full = await get('/assets/index-abc.js', 'br');
    const head = await get('/assets/index-abc.js', 'br', 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(full.body.length));
    expect(head.body.length).toBe(0);
  });

  it('keeps the security headers and CSP on a compressed script', async () => {
    const a = await get('/assets/index-abc.js', 'br');
    expect(a.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(a.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('a hashed file this build does not have', () => {
  it('is a 404 (a balancer may ask another gateway for it during a rolling upgrade), not the console page', async () => {
    const a = await get('/assets/index-zzz.js', 'gzip, br');
    expect(a.status).toBe(404);
    expect(a.headers['content-type']).toMatch(/^text\/plain/);
    expect(a.body.toString()).not.toContain('<html');
  });
});

describe('the console page', () => {
  for (const page of ['/', '/index.html', '/admin/login']) {
    it(`${page}: compressed by Accept-Encoding, never cached without revalidation, with its map setting and CSP`, async () => {
      const br = await get(page, 'gzip, deflate, br');
      expect(br.status).toBe(200);
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(br.headers['content-encoding']).toBe('br');
      const html = zlib.brotliDecompressSync(br.body).toString();
      expect(html).toContain(`<meta name="sentra-map-tile-url" content="${TILES}" />`);
      expect(html).toContain('<script type="module" src="/assets/index-abc.js">');
      expect(br.headers['content-security-policy']).toMatch(/img-src [^;]*https:\/\/\*\.tile\.openstreetmap\.org/);
      expect(br.headers['x-frame-options']).toBe('DENY');

      const gz = await get(page, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.body).toString()).toBe(html);
      const plain = await get(page);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.body.toString()).toBe(html);
    });
  }
});
