// The console's hashed scripts and styles answered from memory, everything else left to express.static: a real HTTP
// server on a loopback port over a throw-away dist directory.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import zlib from 'node:zlib';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE, inMemoryAssets } from './assets.js';

let dir: string;
let server: ReturnType<express.Express['listen']>;
let base: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-assets-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("sentra")');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.css'), 'body{margin:0}');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.map'), '{"version":3}');
  fs.writeFileSync(path.join(dir, 'assets', 'zz-big.js'), 'x'.repeat(4096));
  // a gzip copy no smaller than its file (a stale or foreign one): never answered
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.css.gz'), zlib.gzipSync('body{margin:0}'));
  const app = express();
  app.use(inMemoryAssets(path.join(dir, 'assets'), '/assets/', 1024));
  app.use(express.static(dir, { index: false, maxAge: '1h' }));
  await new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', () => resolve())));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // built after the handler read the directory: only express.static knows it
  fs.writeFileSync(path.join(dir, 'assets', 'later-def456.js'), 'export {}');
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('in-memory console assets', () => {
  it('answers a script and a style from memory, cacheable for a year', async () => {
    const js = await fetch(`${base}/assets/index-abc123.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(await js.text()).toBe('console.log("sentra")');
    const css = await fetch(`${base}/assets/index-abc123.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toBe('body{margin:0}');
  });

  it('answers HEAD with the length and no body', async () => {
    const res = await fetch(`${base}/assets/index-abc123.js`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String('console.log("sentra")'.length));
    expect(await res.text()).toBe('');
  });

  it('leaves source maps, files built after start and files past the memory bound to express.static', async () => {
    for (const [name, body] of [
      ['index-abc123.js.map', '{"version":3}'],
      ['later-def456.js', 'export {}'],
      ['zz-big.js', 'x'.repeat(4096)],
    ]) {
      const res = await fetch(`${base}/assets/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('cache-control'), name).toBe('public, max-age=3600');
      expect(await res.text(), name).toBe(body);
    }
  });

  it('ignores a compressed copy that is not smaller than its file', async () => {
    const css = await fetch(`${base}/assets/index-abc123.css`, { headers: { 'accept-encoding': 'gzip' } });
    expect(css.headers.get('content-encoding')).toBeNull();
    expect(css.headers.get('vary')).toBe('Accept-Encoding');
    expect(await css.text()).toBe('body{margin:0}');
  });

  it('passes other methods and unknown files on', async () => {
    expect((await fetch(`${base}/assets/index-abc123.js`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/assets/nothing.js`)).status).toBe(404);
  });
});
