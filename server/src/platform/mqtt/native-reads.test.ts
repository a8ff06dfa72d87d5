// The native reader with real loopback sockets: a connection taken over reads in order through its client's parser,
// stops while its client cannot take more, ends with its peer, and shares its writes with Node's in order.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nativeFd } from '../native-fd.js';
import { required } from '../testing/required.js';
import { until } from '../testing/until.js';
import { NativeReads } from './native-reads.js';

const native = nativeFd();

/** what NativeReads needs of an aedes client: its socket, its read-loop state and a parser that records chunks */
function clientOf(conn: net.Socket) {
  const chunks: Buffer[] = [];
  return {
    closed: false,
    connackSent: true,
    _paused: false,
    _parsingBatch: 0,
    _parser: {
      parse: (b: Buffer): unknown => chunks.push(Buffer.from(b)),
    },
    conn,
    chunks,
    text: () => Buffer.concat(chunks).toString(),
  };
}
type Fake = ReturnType<typeof clientOf>;

let reads: NativeReads<Fake> | undefined;
const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) s.close();
  reads?.close();
  reads = undefined;
});

/** a connected pair: `server` is the broker's side (Node's socket), `peer` the device's */
async function pair(): Promise<{ server: net.Socket; peer: net.Socket }> {
  let accepted!: (s: net.Socket) => void;
  const got = new Promise<net.Socket>((r) => (accepted = r));
  const srv = net.createServer(accepted);
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const peer = net.connect((srv.address() as net.AddressInfo).port, '127.0.0.1');
  const server = await got;
  sockets.push(server, peer);
  return { server, peer };
}

/** a pair whose broker side the reader took over (the reader made if the test has none yet) */
async function takenOver() {
  reads ??= new NativeReads<Fake>(native!.createReader);
  const { server, peer } = await pair();
  const client = clientOf(server);
  expect(reads.settled(client)).toBe(true);
  return { server, peer, client };
}

describe.skipIf(!required('the native reader (server/native)', native !== null, 'npm run native'))(
  'native reads',
  () => {
    it('takes a quiet connection over: what the peer sends reaches the parser in order, Node reads nothing', async () => {
      reads = new NativeReads<Fake>(native!.createReader);
      const { server, peer } = await pair();
      const client = clientOf(server);
      let nodeRead = 0;
      server.on('data', () => nodeRead++);
      expect(reads.settled(client)).toBe(true);
      expect(reads.size).toBe(1);
      // 2 MB in 4 KB writes: many reads, every byte once, in order
      const parts = Array.from({ length: 512 }, (_, i) => `${String(i).padStart(4, '0')}:${'x'.repeat(4091)}`);
      for (const p of parts) peer.write(p);
      const whole = parts.join('');
      expect(await until(() => client.text().length >= whole.length, 10_000)).toBe(true);
      expect(client.text()).toBe(whole);
      expect(nodeRead).toBe(0);
    });

    it('does not take over a connection not signed in, busy, paused or with bytes Node read and nobody parsed', async () => {
      reads = new NativeReads<Fake>(native!.createReader);
      const { server } = await pair();
      const client = clientOf(server);
      expect(reads.settled({ ...client, connackSent: false })).toBe(false);
      expect(reads.settled({ ...client, _parsingBatch: 1 })).toBe(false);
      expect(reads.settled({ ...client, _paused: true })).toBe(false);
      server.pause();
      server.unshift(Buffer.from('unparsed'));
      expect(reads.settled(client)).toBe(false);
      expect(reads.size).toBe(0);
    });

    it('stops reading a client that cannot take more until it settles; the bytes wait in the socket', async () => {
      const { server, peer, client } = await takenOver();
      // the first chunk's packet is still being handled (aedes counts it in _parsingBatch)
      client._parser.parse = (b: Buffer) => {
        client.chunks.push(Buffer.from(b));
        client._parsingBatch = 1;
      };
      peer.write('one');
      expect(await until(() => client.text() === 'one')).toBe(true);
      peer.write('two');
      // time for the bytes to be read, were reading not held (the kernel keeps them: nothing to count)
      await new Promise((r) => setTimeout(r, 100));
      expect(client.text()).toBe('one');
      client._parsingBatch = 0;
      client._parser.parse = (b: Buffer) => client.chunks.push(Buffer.from(b));
      reads!.settled(client);
      expect(await until(() => client.text() === 'onetwo')).toBe(true);
    });

    it('reads nothing while the whole reader is stopped (the thread-wide gate), and all of it once it reads again', async () => {
      const { server, peer, client } = await takenOver();
      reads!.reading(false);
      peer.write('held');
      // time for the bytes to be read, were reading not stopped (the kernel keeps them: nothing to count)
      await new Promise((r) => setTimeout(r, 100));
      expect(client.text()).toBe('');
      reads!.reading(true);
      expect(await until(() => client.text() === 'held')).toBe(true);
    });

    it("ends the connection at its peer's end or reset: the socket is destroyed and its slot reused", async () => {
      reads = new NativeReads<Fake>(native!.createReader);
      const a = await pair();
      const first = clientOf(a.server);
      reads.settled(first);
      a.peer.end('last words');
      expect(await until(() => a.server.destroyed && reads!.size === 0)).toBe(true);
      expect(first.text()).toBe('last words');
      const b = await pair();
      const second = clientOf(b.server);
      let error: Error | undefined;
      b.server.on('error', (err) => (error = err));
      reads.settled(second);
      b.peer.write('hello');
      expect(await until(() => second.text() === 'hello')).toBe(true);
      b.peer.resetAndDestroy();
      expect(await until(() => b.server.destroyed && reads!.size === 0)).toBe(true);
      expect(error?.message).toBe('read ECONNRESET');
      expect(first.text()).toBe('last words');
    });

    it('lets go of a connection a packet closed while it was parsed (DISCONNECT), and reads the others on', async () => {
      reads = new NativeReads<Fake>(native!.createReader);
      const a = await pair();
      const b = await pair();
      const leaving = clientOf(a.server);
      const staying = clientOf(b.server);
      leaving._parser.parse = () => a.server.destroy();
      reads.settled(leaving);
      reads.settled(staying);
      a.peer.write('disconnect');
      expect(await until(() => reads!.size === 1)).toBe(true);
      b.peer.write('still here');
      expect(await until(() => staying.text() === 'still here')).toBe(true);
    });

    it("writes straight to the socket when nothing else waits, else after Node's own writes, in order", async () => {
      const { server, peer, client } = await takenOver();
      let got = '';
      peer.on('data', (d: Buffer) => (got += d.toString()));
      reads!.write(client, Buffer.from('a'));
      server.cork();
      server.write('b');
      // Node holds 'b' (corked): this one must follow it, not overtake it
      reads!.write(client, Buffer.from('c'));
      server.uncork();
      reads!.write(client, Buffer.from('d'));
      expect(await until(() => got.length === 4)).toBe(true);
      expect(got).toBe('abcd');
    });
  },
);
