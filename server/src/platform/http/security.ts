// Security headers on every answer of the gateway (console pages, its scripts and styles, the API): a strict
// Content-Security-Policy, no framing, no MIME sniffing, no referrer. The policy is the second wall behind rendering
// every device and user text as text (issue 23): were a text to slip into the page as HTML anyway, no script from it
// runs — scripts only from the gateway's own files, no inline script, no eval. Reasons: docs/decisions/security-console.md.
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { RequestHandler } from 'express';
import { tileOrigin } from './map-tiles.js';

/** The Host header as a CSP host source, or undefined when it is not a plain host[:port] (never echoed into a header). */
function hostOf(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  return host &&
    host.length <= 255 &&
    /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host)
    ? host
    : undefined;
}

/** A source for `scheme://<the request's host>`, or 'self' again when the Host header is not a plain host. */
const sameHost = (scheme: string) => (req: IncomingMessage) => {
  const host = hostOf(req);
  return host ? `${scheme}://${host}` : "'self'";
};

export interface SecurityOptions {
  /** the base-map tile URL (MAP_TILE_URL): its origin may serve pictures */
  mapTileUrl?: string;
}

type Directive = Iterable<string | ((req: IncomingMessage, res: ServerResponse) => string)>;

/** The policy's directives; pure, so the unit test reads them without a server. */
export function cspDirectives(opts: SecurityOptions = {}): Record<string, Directive> {
  const tiles = tileOrigin(opts.mapTileUrl);
  return {
    'default-src': ["'self'"],
    // the console's hashed module scripts only: the built index.html has no inline script (Vite's modulepreload
    // polyfill is part of the entry chunk), nothing in the bundle evaluates strings
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // MUI (emotion), Plotly and Leaflet style elements at run time: 'unsafe-inline' for styles only (the decision file
    // says why a nonce was not taken); CSS runs no script
    'style-src': ["'self'", "'unsafe-inline'"],
    // card pictures, icons and floor plans are addresses a member or a device gives (https), previews are blob: URLs,
    // Leaflet's and the grid's own pictures data: URIs
    'img-src': ["'self'", 'data:', 'blob:', 'https:', ...(tiles ? [tiles] : [])],
    'font-src': ["'self'", 'data:'],
    // the API and socket.io on this origin; ws:/wss: of the same host spelled out for browsers whose 'self' omits them
    'connect-src': ["'self'", sameHost('ws'), sameHost('wss')],
    // a custom-URL dashboard and the embedded-page card show the page a member chose, in a frame of its own origin
    'frame-src': ["'self'", 'https:', 'http:'],
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The security headers middleware, first on the Express application. */
export function securityHeaders(opts: SecurityOptions = {}): RequestHandler {
  const helmetHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(opts) },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    xContentTypeOptions: true,
    // TLS ends at the deployment's proxy (the gateway speaks plain HTTP): whether to pin HTTPS is that proxy's call
    strictTransportSecurity: false,
    // the console's pictures and the API are for this origin only
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  }) as RequestHandler;
  // helmet's answer depends on the Host alone (the policy's ws:/wss: sources): it runs once per host and its headers are
  // replayed, a dozen middlewares and a policy string saved on every request; a host beyond the first few (a client
  // making up Host headers) is answered by helmet itself, so the memory stays bounded
  const byHost = new Map<string, Array<[string, string]>>();
  return (req, res, next) => {
    const host = req.headers.host ?? '';
    let headers = byHost.get(host);
    if (!headers) {
      headers = recordHeaders(helmetHeaders, req);
      if (!headers || byHost.size >= MAX_HOSTS) return helmetHeaders(req, res, next);
      byHost.set(host, headers);
    }
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

const MAX_HOSTS = 32;

/** The headers a middleware sets for `req`, or undefined when it did anything else (an error, a removal). */
function recordHeaders(middleware: RequestHandler, req: IncomingMessage): Array<[string, string]> | undefined {
  const headers: Array<[string, string]> = [];
  let plain = true;
  let done = false;
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      if (typeof value === 'string') headers.push([name, value]);
      else plain = false;
    },
    // helmet removes X-Powered-By, which the application never sets (express' x-powered-by is disabled)
    removeHeader() {},
  };
  middleware(req as never, recorder as never, (err?: unknown) => {
    done = err === undefined;
  });
  return done && plain ? headers : undefined;
}
