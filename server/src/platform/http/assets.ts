// The console's built scripts and styles (web/dist/assets: content-hashed names, a file never changes once built), read
// into memory once and each answered in one synchronous write, cacheable for a year. express.static needs a stat, an
// open, reads and a close per file, each waiting for a turn of the event loop: while the loop evaluated a dashboard's
// first card frames, that dashboard's card view scripts waited 150–180 ms each (issue #9, 30-card profile). Source
// maps, files built after start and anything else fall through to the next handler (express.static).
import fs from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** the console's scripts and styles are ~3 MB; a directory holding far more is not held in memory beyond this */
const MAX_BYTES = 32 * 1024 * 1024;

interface Asset {
  body: Buffer;
  type: string;
}

/** Serves `<dir>/<name>` for the .js and .css files found in `dir` now, under the URL prefix `mount` (e.g. /assets/). */
export function inMemoryAssets(dir: string, mount: string, maxBytes = MAX_BYTES): RequestHandler {
  const assets = new Map<string, Asset>();
  let total = 0;
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  for (const name of names) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const body = fs.readFileSync(path.join(dir, name));
    if (total + body.length > maxBytes) break;
    total += body.length;
    assets.set(mount + name, { body, type });
  }
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const asset = assets.get(req.path);
    if (!asset) return next();
    res.writeHead(200, { 'content-type': asset.type, 'content-length': asset.body.length, 'cache-control': IMMUTABLE });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
  };
}
