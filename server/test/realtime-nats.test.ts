// Scale-out: two gateway processes' worth of apps share one NATS and one database; an emit on one reaches the
// viewers connected to the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { startScaleOut, type Running, type ScaleOut } from './harness.js';
import { tenantSession } from './fixtures.js';
import { hasNatsServer } from '../src/platform/bus/testing/nats-server.js';
import { eventually } from '../src/platform/testing/until.js';
import { ask, openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';

describe.skipIf(!hasNatsServer)('realtime across gateways (BUS=nats)', () => {
  let scale: ScaleOut;
  let one: Running;
  let two: Running;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    scale = await startScaleOut();
    ({ one, two } = scale);
    for (const gw of [one, two])
      gw.app.realtime.channel('test.tenant', { join: (caller) => `tenant:${caller.tenantId}` });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await scale?.stop();
  });

  it('uses the NATS bus', () => {
    expect(one.app.bus.kind).toBe('nats');
  });

  it('delivers an emit made on one gateway to the viewers of the other, once', async () => {
    const t = await tenantSession(one.url);
    const { socket } = await openSocket(two.url, sessionAuth(t));
    sockets.push(socket!);
    const got: unknown[] = [];
    socket!.on('card', (p) => got.push(p));
    const { room } = await ask(socket!, 'subscribe', { channel: 'test.tenant' });
    expect(two.app.realtime.viewers(room)).toBe(1);
    expect(one.app.realtime.viewers(room)).toBe(0);
    one.app.realtime.emit(room, 'card', { from: 'one' });
    two.app.realtime.emit(room, 'card', { from: 'two' });
    await eventually(() => expect(got).toHaveLength(2));
    // a second round: once both of its messages came, a duplicate of the first round would have come too
    one.app.realtime.emit(room, 'card', { from: 'one', round: 2 });
    two.app.realtime.emit(room, 'card', { from: 'two', round: 2 });
    await eventually(() => expect(got.filter((p) => (p as { round?: number }).round === 2)).toHaveLength(2));
    expect(got).toEqual(expect.arrayContaining([{ from: 'one' }, { from: 'two' }]));
    expect(got).toHaveLength(4);
  });
});
