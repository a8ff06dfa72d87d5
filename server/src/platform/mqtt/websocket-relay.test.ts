import { Duplex, PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../log.js';
import type { LoopCommand } from './broker-wire.js';
import { WebSocketRelay } from './websocket-relay.js';

const log = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

function relay(maxOutbound = 1024) {
  const sent: LoopCommand[] = [];
  const overflows: number[] = [];
  const r = new WebSocketRelay(
    (m) => sent.push(m),
    maxOutbound,
    (bytes) => overflows.push(bytes),
    log,
  );
  return { r, sent, overflows };
}
/** a client's socket: what is written to it is `written`; one that stopped reading never completes a write */
function socket(reading = true) {
  const written: number[] = [];
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, done) {
      written.push(...chunk);
      if (reading) done();
    },
    writableHighWaterMark: 1,
  });
  return { stream, written };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('MQTT over WebSocket, relayed to the broker thread', () => {
  it("relays a connection's opening, bytes and close to the thread", async () => {
    const { r, sent } = relay();
    const stream = new PassThrough();
    r.open(stream, '10.0.0.1');
    stream.emit('data', Buffer.from([0x10, 0x00]));
    stream.destroy();
    await tick();
    expect(sent).toEqual([
      { t: 'wsOpen', id: 1, address: '10.0.0.1' },
      { t: 'wsData', id: 1, data: new Uint8Array([0x10, 0x00]) },
      { t: 'wsEnd', id: 1 },
    ]);
  });

  it("writes the thread's bytes to the connection and ends it when the thread does, then tells it nothing more", async () => {
    const { r, sent } = relay();
    const { stream, written } = socket();
    r.open(stream, undefined);
    r.write(1, new Uint8Array([0x20, 0x02, 0, 0]));
    r.ended(1);
    r.write(1, new Uint8Array([1])); // unknown by now: ignored
    await tick();
    expect(written).toEqual([0x20, 0x02, 0, 0]);
    expect(stream.writableEnded).toBe(true);
    expect(sent.filter((m) => m.t === 'wsEnd')).toEqual([]);
  });

  it('closes a connection holding more than the outbound limit unwritten, and tells the thread', async () => {
    const { r, sent, overflows } = relay(16);
    const { stream } = socket(false);
    r.open(stream, undefined);
    r.write(1, new Uint8Array(8));
    r.write(1, new Uint8Array(8));
    r.write(1, new Uint8Array(8)); // nobody reads: 24 bytes waiting
    expect(overflows).toHaveLength(1);
    expect(overflows[0]).toBeGreaterThan(16);
    expect(stream.destroyed).toBe(true);
    expect(sent.at(-1)).toEqual({ t: 'wsEnd', id: 1 });
  });

  it('drops every relayed connection when the thread is gone', () => {
    const { r } = relay();
    const a = new PassThrough();
    const b = new PassThrough();
    r.open(a, undefined);
    r.open(b, undefined);
    r.dropAll();
    expect(a.destroyed && b.destroyed).toBe(true);
  });
});
