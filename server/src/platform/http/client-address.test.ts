import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressOf, parseTrustedProxies } from './client-address.js';

const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  }) as unknown as IncomingMessage;

describe('the client address behind a call', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf()(request('198.51.100.4', '203.0.113.1'))).toBe('198.51.100.4');
  });

  it('is the forwarded address when the peer is a trusted balancer, the nearest one it did not add itself', () => {
    const of = clientAddressOf(['10.0.0.0/8']);
    expect(of(request('10.0.0.5', '203.0.113.1'))).toBe('203.0.113.1');
    // a client that sends its own X-Forwarded-For: the balancer appends the real peer, which is what counts
    expect(of(request('10.0.0.5', '192.0.2.66, 203.0.113.1'))).toBe('203.0.113.1');
    // behind two balancers of the trusted range
    expect(of(request('10.0.0.5', '203.0.113.1, 10.0.0.7'))).toBe('203.0.113.1');
    // from outside the trusted range the header is ignored
    expect(of(request('198.51.100.4', '203.0.113.1'))).toBe('198.51.100.4');
  });

  it("takes proxy-addr's presets and refuses what is not an address", () => {
    expect(parseTrustedProxies('loopback, 10.0.0.0/8 ,uniquelocal')).toEqual({
      ok: true,
      list: ['loopback', '10.0.0.0/8', 'uniquelocal'],
    });
    expect(clientAddressOf(['loopback'])(request('127.0.0.1', '203.0.113.9'))).toBe('203.0.113.9');
    expect(parseTrustedProxies('10.0.0.0/99').ok).toBe(false);
    expect(parseTrustedProxies('haproxy.local').ok).toBe(false);
  });
});
