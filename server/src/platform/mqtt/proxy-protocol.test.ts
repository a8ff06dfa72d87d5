import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { acceptProxied, parseProxyHeader } from './proxy-protocol.js';
import { until } from '../testing/until.js';

const SIG = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
function v2(command: number, family: number, address: Buffer) {
  const head = Buffer.alloc(4);
  head[0] = 0x20 | command;
  head[1] = family;
  head.writeUInt16BE(address.length, 2);
  return Buffer.concat([SIG, head, address]);
}
const v4block = Buffer.from([203, 0, 113, 7, 10, 0, 0, 5, 0x30, 0x39, 0x07, 0x5b]);

describe('PROXY headers', () => {
  it('reads version 1 lines for TCP4, TCP6 and UNKNOWN, and waits for the whole line', () => {
    const line = Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.5 56324 1883\r\n\x10\x0c');
    expect(parseProxyHeader(line)).toEqual({ done: true, length: line.length - 2, source: '203.0.113.7' });
    expect(parseProxyHeader(line.subarray(0, 20))).toEqual({ done: false });
    expect(parseProxyHeader(Buffer.from('PROXY TCP6 2001:db8::1 2001:db8::2 1 2\r\n'))).toMatchObject({
      source: '2001:db8::1',
    });
    expect(parseProxyHeader(Buffer.from('PROXY UNKNOWN\r\n'))).toEqual({ done: true, length: 15 });
  });

  it('refuses a version 1 line that is malformed or too long', () => {
    expect(parseProxyHeader(Buffer.from('PROXY TCP4 999.0.0.1 10.0.0.5 1 2\r\n'))).toHaveProperty('error');
    expect(parseProxyHeader(Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.5 1 99999\r\n'))).toHaveProperty('error');
    expect(parseProxyHeader(Buffer.from('PROXY TCP4 2001:db8::1 10.0.0.5 1 2\r\n'))).toHaveProperty('error');
    expect(parseProxyHeader(Buffer.from('PROXY ' + 'x'.repeat(120)))).toHaveProperty('error');
  });

  it('reads version 2 headers: PROXY over IPv4 and IPv6, LOCAL without an address, and waits for all of it', () => {
    const h = v2(1, 0x11, v4block);
    expect(parseProxyHeader(Buffer.concat([h, Buffer.from([0x10])]))).toEqual({
      done: true,
      length: 28,
      source: '203.0.113.7',
    });
    expect(parseProxyHeader(h.subarray(0, 20))).toEqual({ done: false });
    expect(parseProxyHeader(h.subarray(0, 8))).toEqual({ done: false });
    const six = Buffer.alloc(36);
    Buffer.from('20010db8000000000000000000000001', 'hex').copy(six, 0);
    expect(parseProxyHeader(v2(1, 0x21, six))).toMatchObject({ source: '2001:db8::1' });
    const mapped = Buffer.alloc(36);
    Buffer.from('00000000000000000000ffffcb007107', 'hex').copy(mapped, 0);
    expect(parseProxyHeader(v2(1, 0x21, mapped))).toMatchObject({ source: '::ffff:203.0.113.7' });
    expect(parseProxyHeader(v2(0, 0x00, Buffer.alloc(0)))).toEqual({ done: true, length: 16 });
  });

  it('refuses version 2 headers of another version, command, or a body too long', () => {
    const wrongVersion = v2(1, 0x11, v4block);
    wrongVersion[12] = 0x31;
    expect(parseProxyHeader(wrongVersion)).toHaveProperty('error');
    expect(parseProxyHeader(v2(5, 0x11, v4block))).toHaveProperty('error');
    expect(parseProxyHeader(v2(1, 0x11, Buffer.alloc(600)))).toHaveProperty('error');
    expect(parseProxyHeader(Buffer.from([0x0d, 0x0a, 0x0d, 0x0b]))).toHaveProperty('error');
  });
});

describe('a connection behind a balancer', () => {
  /** a server whose connections go through acceptProxied; answers what it saw: the address and the first bytes after */
  async function serve(trusted: (a: string) => boolean) {
    const seen: Array<{ address?: string; data: string }> = [];
    const server = net.createServer((s) =>
      acceptProxied(s, trusted, (socket) => {
        socket.once('readable', () => {
          const data = socket.read() as Buffer | null;
          seen.push({ address: socket.remoteAddress, data: data?.toString('latin1') ?? '' });
        });
      }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { server, seen, port: (server.address() as net.AddressInfo).port };
  }
  const send = (port: number, chunks: Buffer[], localAddress = '127.0.0.1') =>
    new Promise<net.Socket>((resolve) => {
      const c = net.connect({ port, host: '127.0.0.1', localAddress }, async () => {
        for (const chunk of chunks) {
          c.write(chunk);
          await new Promise((r) => setTimeout(r, 5));
        }
        resolve(c);
      });
      c.on('error', () => undefined);
    });

  it("takes the client's address from a trusted peer's header, split over reads, and hands on the bytes after it", async () => {
    const { server, seen, port } = await serve((a) => a === '127.0.0.1');
    const c = await send(port, [Buffer.from('PROXY TCP4 203.0.'), Buffer.from('113.7 10.0.0.5 1 2\r\nMQTT')]);
    expect(await until(() => seen.length === 1, 1000, 5)).toBe(true);
    expect(seen[0]).toEqual({ address: '203.0.113.7', data: 'MQTT' });
    c.destroy();
    server.close();
  });

  it("leaves an untrusted peer's bytes unread, header or not, and its own address", async () => {
    const { server, seen, port } = await serve((a) => a === '127.0.0.9');
    const c = await send(port, [Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.5 1 2\r\nMQTT')], '127.0.0.2');
    expect(await until(() => seen.length === 1, 1000, 5)).toBe(true);
    expect(seen[0]!.address).toBe('127.0.0.2');
    expect(seen[0]!.data.startsWith('PROXY TCP4')).toBe(true);
    c.destroy();
    server.close();
  });

  it('takes a trusted peer without a header as it is, and ends one whose header is malformed', async () => {
    const { server, seen, port } = await serve(() => true);
    const plain = await send(port, [Buffer.from([0x10, 0x0c])]);
    expect(await until(() => seen.length === 1, 1000, 5)).toBe(true);
    expect(seen[0]).toEqual({ address: '127.0.0.1', data: '\x10\x0c' });
    const bad = await send(port, [Buffer.from('PROXY TCP4 nonsense\r\n')]);
    const closed = await new Promise((r) => {
      if (bad.closed) return r(true);
      bad.once('close', () => r(true));
      setTimeout(() => r(false), 2000);
    });
    expect(closed).toBe(true);
    expect(seen).toHaveLength(1);
    plain.destroy();
    server.close();
  });
});
