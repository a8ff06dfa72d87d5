// Scale-out: two gateway processes' worth of apps share one NATS and one database; an emit on one reaches the
// viewers connected to the other.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { startGateway, type Running } from './harness.js';
import { tenantSession } from './fixtures.js';
import { eventually, hasNatsServer, startNatsServer, type NatsServer } from '../src/platform/bus/testing/nats-server.js';
import { ask, openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';

describe.skipIf(!hasNatsServer)('realtime across gateways (BUS=nats)', () => {
  let nats: NatsServer;
  let one: Running;
  let two: Running;
  let dataDir: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-scaleout-'));
    const env = { BUS: 'nats', NATS_URL: nats.url, DATA_DIR: dataDir };
    one = await startGateway(env);
    two = await startGateway(env);
    for (const gw of [one, two]) gw.app.realtime.channel('test.tenant', { join: (caller) => `tenant:${caller.tenantId}` });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await one?.stop();
    await two?.stop();
    await nats?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
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
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual(expect.arrayContaining([{ from: 'one' }, { from: 'two' }]));
    expect(got).toHaveLength(2);
  });
});
