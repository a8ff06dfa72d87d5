// The Express application around the mounted contract routes: JSON parsing, the OpenAPI document, unknown API paths,
// the built web console (its hashed scripts and styles from memory) with its single-page fallback, and the one error
// handler.
import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { OPENAPI_PATH, Result, T, openApiDocument } from '@sentra/contracts';
import { compressed, inMemoryAssets, sendEncoded } from './assets.js';
import { consolePage } from './console-page.js';
import { ApiError, invalid, notFound } from './errors.js';
import { mountRoutes, sendError, type BoundRoute, type MountOptions } from './mount.js';
import { securityHeaders } from './security.js';

export interface HttpOptions extends MountOptions {
  routes: BoundRoute[];
  /** directory of the built web console, served when it exists */
  webDist?: string;
  /** extra Express handlers mounted before the API (health, metrics); they get no parsed JSON body */
  extend?: (app: express.Express) => void;
  /** the base-map tile URL template (MAP_TILE_URL): given to the console's page and allowed by its policy */
  mapTileUrl?: string;
}

const API_PREFIXES = ['/service/', '/fetch/'];

export function createHttpApp(opts: HttpOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const json = express.json({ limit: '2mb' });
  // first: every answer (API, console page, scripts, errors) carries the policy and headers
  app.use(securityHeaders({ mapTileUrl: opts.mapTileUrl }));

  opts.extend?.(app);
  // the API before the body parser: a card GET goes straight to its route; POST routes parse their body themselves
  mountRoutes(app, opts.routes, { ...opts, parseBody: json });
  app.use(json);
  const openapi = openApiDocument();
  app.get(OPENAPI_PATH, (_req, res) => {
    res.json(openapi);
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (API_PREFIXES.some((p) => req.path.startsWith(p)))
      return sendError(res, notFound(`Tidak ada panggilan ${req.method} ${req.path}`));
    next();
  });

  const index = opts.webDist ? path.join(opts.webDist, 'index.html') : undefined;
  if (opts.webDist && index && fs.existsSync(index)) {
    // the page with the gateway's settings, made once (a rebuilt console's page needs a restart, as its assets do)
    // (compressed once too: it names the hashed scripts, so it is revalidated on every load, never kept)
    const page = compressed(Buffer.from(consolePage(fs.readFileSync(index, 'utf8'), { mapTileUrl: opts.mapTileUrl })));
    const sendPage = (req: Request, res: Response) => {
      sendEncoded(req, res, page, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    };
    app.use(inMemoryAssets(path.join(opts.webDist, 'assets'), '/assets/'));
    // the page by its file name too, with its settings (express.static would answer the file as built)
    app.get('/index.html', sendPage);
    app.use(express.static(opts.webDist, { index: false, maxAge: '1h' }));
    // a hashed file this build does not have (a page of another build, during a rolling upgrade) is a 404, not the
    // console page: a load balancer can ask another gateway for it (deploy/haproxy/haproxy.cfg)
    app.use('/assets/', (_req: Request, res: Response) => {
      res.status(404).type('text/plain').send('Not found');
    });
    app.get(/.*/, sendPage);
  }

  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as { type?: string; status?: number };
    if (err instanceof ApiError) return sendError(res, err);
    if (e?.type === 'entity.parse.failed') return sendError(res, invalid(T.common.bodyNotJson));
    // 413 Content Too Large (RFC 9110), the envelope's -10 beside it
    if (e?.type === 'entity.too.large') return sendError(res, new ApiError(Result.INVALID, T.common.bodyTooLarge, 413));
    if (e?.status && e.status >= 400 && e.status < 500)
      return sendError(res, new ApiError(Result.INVALID, T.common.invalidInput, e.status));
    opts.log.error('unhandled HTTP error', err);
    sendError(res, new ApiError(Result.UNEXPECTED, T.common.unexpected, 500));
  });
  return app;
}
