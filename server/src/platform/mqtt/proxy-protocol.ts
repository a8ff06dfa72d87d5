// The PROXY protocol (HAProxy's, versions 1 and 2) on the MQTT listener: a load balancer in front of the broker opens
// each TCP connection with a header naming the client's address, so the sign-in throttles count devices by their own
// address and not all at the balancer's. Read only from a peer named by TRUST_PROXY (from anyone else a header would
// let a client choose its address), and only when `MQTT_PROXY_PROTOCOL=on`; a trusted peer's connection that does not
// start with a header (a plain health check) is taken as it is. Hand-written: the header is a few dozen bytes of a
// short, fixed specification (HAProxy's proxy-protocol.txt) read once per connection, and what takes the work is the
// hand-over of the socket to aedes with the bytes after the header unread, which a parser library would not do.
import net from 'node:net';

/** v2's fixed signature */
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** v1's longest line (the specification's bound) */
const V1_MAX = 107;
/** v2: the header a balancer sends is a few TLVs at most; more is not a balancer */
const V2_MAX_BODY = 512;

export type ProxyHeader =
  /** more bytes are needed */
  | { done: false }
  /** the header is `length` bytes; `source` the client's address (none for LOCAL/UNKNOWN: the balancer's own) */
  | { done: true; length: number; source?: string }
  | { error: string };

/** whether `chunk` (a connection's first bytes) may begin a PROXY header at all (MQTT starts with 0x10, CONNECT) */
export const startsLikeProxy = (chunk: Buffer) => chunk.length > 0 && (chunk[0] === 0x50 || chunk[0] === 0x0d);

/** Reads a PROXY header at the start of `buf`. */
export function parseProxyHeader(buf: Buffer): ProxyHeader {
  if (buf[0] === 0x50) return parseV1(buf);
  const prefix = Math.min(buf.length, V2_SIGNATURE.length);
  if (!buf.subarray(0, prefix).equals(V2_SIGNATURE.subarray(0, prefix))) return { error: 'not a PROXY header' };
  return parseV2(buf);
}

function parseV1(buf: Buffer): ProxyHeader {
  const end = buf.indexOf('\r\n', 0, 'latin1');
  if (end < 0) return buf.length >= V1_MAX ? { error: 'PROXY v1 line too long' } : { done: false };
  if (end + 2 > V1_MAX) return { error: 'PROXY v1 line too long' };
  const parts = buf.subarray(0, end).toString('latin1').split(' ');
  if (parts[0] !== 'PROXY') return { error: 'not a PROXY header' };
  if (parts[1] === 'UNKNOWN') return { done: true, length: end + 2 };
  const family = parts[1] === 'TCP4' ? 4 : parts[1] === 'TCP6' ? 6 : 0;
  if (!family || parts.length !== 6 || net.isIP(parts[2]!) !== family || net.isIP(parts[3]!) !== family)
    return { error: 'malformed PROXY v1 header' };
  if (!parts.slice(4).every((p) => /^\d{1,5}$/.test(p) && Number(p) <= 65535))
    return { error: 'malformed PROXY v1 ports' };
  return { done: true, length: end + 2, source: parts[2] };
}

function parseV2(buf: Buffer): ProxyHeader {
  if (buf.length < 16) return { done: false };
  const versionCommand = buf[12]!;
  if (versionCommand >> 4 !== 2) return { error: 'PROXY v2: unknown version' };
  const command = versionCommand & 0x0f;
  const body = buf.readUInt16BE(14);
  if (body > V2_MAX_BODY) return { error: 'PROXY v2 header too long' };
  if (buf.length < 16 + body) return { done: false };
  const length = 16 + body;
  if (command === 0) return { done: true, length }; // LOCAL: the balancer's own connection (a health check)
  if (command !== 1) return { error: 'PROXY v2: unknown command' };
  const family = buf[13]! >> 4;
  if (family === 1 && body >= 12) return { done: true, length, source: ipv4(buf.subarray(16, 20)) };
  if (family === 2 && body >= 36) return { done: true, length, source: ipv6(buf.subarray(16, 32)) };
  // AF_UNSPEC or AF_UNIX: no client address to take
  if (family === 0 || family === 3) return { done: true, length };
  return { error: 'PROXY v2: malformed address block' };
}

const ipv4 = (b: Buffer) => `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;

function ipv6(b: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(b.readUInt16BE(i).toString(16));
  // an IPv4 client seen over IPv6 is written as Node writes it (::ffff:a.b.c.d)
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') return `::ffff:${ipv4(b.subarray(12, 16))}`;
  // the longest run of zero groups as '::' (RFC 5952)
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen && j - i > 1) [best, bestLen] = [i, j - i];
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/**
 * Hands `socket` to `then` once its PROXY header (if any) is read: its `remoteAddress` then says the client's address,
 * and the bytes after the header are read by whoever reads the socket next. A peer `trusted` does not name is handed on
 * at once, unread. A malformed header, or none complete within `timeoutMs`, ends the connection.
 */
export function acceptProxied(
  socket: net.Socket,
  trusted: (address: string) => boolean,
  then: (socket: net.Socket) => void,
  timeoutMs = 5000,
): void {
  if (!trusted(socket.remoteAddress ?? '')) return then(socket);
  let buf: Buffer = Buffer.alloc(0);
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  const finish = (length: number, source?: string) => {
    clearTimeout(timer);
    socket.removeListener('data', onData);
    socket.pause();
    const rest = buf.subarray(length);
    if (rest.length) socket.unshift(rest);
    if (source) Object.defineProperty(socket, 'remoteAddress', { value: source, configurable: true });
    then(socket);
  };
  const onData = (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    if (!startsLikeProxy(buf)) return finish(0);
    const header = parseProxyHeader(buf);
    if ('error' in header) {
      clearTimeout(timer);
      socket.destroy();
      return;
    }
    if (header.done) finish(header.length, header.source);
  };
  socket.on('data', onData);
  socket.once('close', () => clearTimeout(timer));
}
