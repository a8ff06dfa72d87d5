// The webhook's SSRF guard: a webhook URL is written by an application's user, so by default the gateway will not
// POST to loopback, private, link-local (cloud metadata 169.254.169.254), carrier-grade NAT, multicast or reserved
// addresses. The check runs on the address actually connected to (a DNS lookup wrapper), so a name that resolves to
// 127.0.0.1 — or changes its answer between check and use — is refused too. WEBHOOK_ALLOW_PRIVATE=on lifts it.
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { DeliveryError } from '../../transports/transport.js';

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** Whether an IP address is a public unicast address (IPv4-mapped IPv6 is judged by its IPv4 part). */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return !blocked.check(mapped[1]!, 'ipv4');
  const family = net.isIP(ip);
  if (family === 4) return !blocked.check(ip, 'ipv4');
  if (family === 6) return !blocked.check(ip, 'ipv6');
  return false;
}

function refused(host: string, address: string): DeliveryError {
  return new DeliveryError(
    `webhook address ${host} (${address}) is not public; set WEBHOOK_ALLOW_PRIVATE=on to allow it`,
    { permanent: true },
  );
}

/** Refuses a URL whose host is a non-public IP literal (these are connected to without a lookup). */
export function checkLiteralHost(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !isPublicAddress(host)) throw refused(url.hostname, host);
}

/** A `lookup` for node:http that resolves as usual and refuses any non-public answer. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || list.length === 0) return callback(refused(hostname, bad?.address ?? 'no address'), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
