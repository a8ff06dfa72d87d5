// The address of the client behind a call: the connection's peer, or — when that peer is one of the load balancers
// named by TRUST_PROXY — the address they put in X-Forwarded-For (the nearest one no trusted proxy added). The
// per-address throttles (sign-in, registration) count by it: behind HAProxy every connection comes from HAProxy, and
// without this one guesser would lock the sign-in out for everybody. proxy-addr is what Express' own `trust proxy`
// uses; a header from a peer that is not trusted is ignored, so a client cannot choose its address.
import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

export type ClientAddress = (req: IncomingMessage) => string;

/** the trusted proxies of TRUST_PROXY (comma-separated), or why they are not valid */
export function parseTrustedProxies(value: string): { ok: true; list: string[] } | { ok: false; error: string } {
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    // addresses, CIDR ranges and proxy-addr's presets (loopback, linklocal, uniquelocal)
    proxyAddr.compile(list);
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  return { ok: true, list };
}

export function clientAddressOf(trusted: readonly string[] = []): ClientAddress {
  if (trusted.length === 0) return (req) => req.socket.remoteAddress ?? '';
  const trust = proxyAddr.compile([...trusted]);
  return (req) => proxyAddr(req as Parameters<typeof proxyAddr>[0], trust);
}
