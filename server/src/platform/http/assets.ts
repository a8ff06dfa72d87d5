// The console's built scripts and styles (web/dist/assets: content-hashed names, a file never changes once built), read
// into memory once and each answered in one synchronous write, cacheable for a year. express.static needs a stat, an
// open, reads and a close per file, each waiting for a turn of the event loop: while the loop evaluated a dashboard's
// first card frames, that dashboard's card view scripts waited 150–180 ms each (issue #9, 30-card profile). Source
// maps, files built after start and anything else fall through to the next handler (express.static).
// The build writes brotli (.br) and gzip (.gz) copies beside each file (web/vite.config.ts): they are held too and the
// one the browser accepts best is answered (Content-Encoding, Vary: Accept-Encoding), the Plotly chunk's 1.1 MB as
// ~0.35 MB. Compressing here instead would cost seconds of brotli at every start, or weaker compression per request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import Negotiator from 'negotiator';

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** the console's scripts and styles (with their compressed copies) are ~5 MB; beyond this they stay on disk */
const MAX_BYTES = 48 * 1024 * 1024;

/** Content codings in the server's order of preference, with the suffix of the build's precompressed copy. */
const CODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;
type Coding = (typeof CODINGS)[number]['coding'];

/** One response body in its plain form and the compressed forms that are smaller. */
export interface Encoded {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * The body to answer for the request's Accept-Encoding, and its coding: negotiator (Express's own) weighs q-values,
 * `*` and `identity;q=0`; between codings the browser accepts equally (Chromium: "gzip, deflate, br, zstd") brotli
 * wins, being smaller. The plain body when no offered coding is acceptable.
 */
export function negotiate(req: Request, body: Encoded): { coding: Coding | 'identity'; body: Buffer } {
  const offered: string[] = CODINGS.filter((c) => body[c.coding]).map((c) => c.coding);
  if (offered.length === 0) return { coding: 'identity', body: body.identity };
  // negotiator 1.x takes the server's preference among equal q-values (its types predate the option)
  const negotiator = new Negotiator(req) as unknown as {
    encoding(available: string[], opts: { preferred: string[] }): string | undefined;
  };
  const chosen = negotiator.encoding([...offered, 'identity'], { preferred: offered });
  const coding = CODINGS.find((c) => c.coding === chosen && body[c.coding]);
  return coding ? { coding: coding.coding, body: body[coding.coding]! } : { coding: 'identity', body: body.identity };
}

/** Writes `body` negotiated, with the given headers; every variant answer says it varies by Accept-Encoding. */
export function sendEncoded(req: Request, res: Response, body: Encoded, headers: Record<string, string>): void {
  const chosen = negotiate(req, body);
  const out: Record<string, string | number> = {
    ...headers,
    'content-length': chosen.body.length,
    vary: 'Accept-Encoding',
  };
  if (chosen.coding !== 'identity') out['content-encoding'] = chosen.coding;
  res.writeHead(200, out);
  res.end(req.method === 'HEAD' ? undefined : chosen.body);
}

/** Compresses a small body made at start (the console page with its settings): brotli and gzip, kept when smaller. */
export function compressed(identity: Buffer): Encoded {
  const br = zlib.brotliCompressSync(identity, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
  });
  const gzip = zlib.gzipSync(identity, { level: 9 });
  return {
    identity,
    ...(br.length < identity.length ? { br } : {}),
    ...(gzip.length < identity.length ? { gzip } : {}),
  };
}

interface Asset extends Encoded {
  type: string;
}

/** Serves `<dir>/<name>` for the .js and .css files found in `dir` now, under the URL prefix `mount` (e.g. /assets/). */
export function inMemoryAssets(dir: string, mount: string, maxBytes = MAX_BYTES): RequestHandler {
  const assets = new Map<string, Asset>();
  let total = 0;
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  const present = new Set(names);
  for (const name of names) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const asset: Asset = { identity: fs.readFileSync(path.join(dir, name)), type };
    let size = asset.identity.length;
    for (const { coding, suffix } of CODINGS) {
      if (!present.has(name + suffix)) continue;
      const copy = fs.readFileSync(path.join(dir, name + suffix));
      // a copy no smaller than the file is useless; the build skips those, an old or foreign one is ignored
      if (copy.length >= asset.identity.length) continue;
      asset[coding] = copy;
      size += copy.length;
    }
    if (total + size > maxBytes) break;
    total += size;
    assets.set(mount + name, asset);
  }
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const asset = assets.get(req.path);
    if (!asset) return next();
    sendEncoded(req, res, asset, { 'content-type': asset.type, 'cache-control': IMMUTABLE });
  };
}
