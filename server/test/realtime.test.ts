// socket.io on the gateway with real clients: the handshake takes the REST session headers, channels decide who may
// watch a room, and emits reach exactly the room's sockets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { authContract, Header, Result, rolesContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { memberWithRole, tenantSession, tenantWithApp } from './fixtures.js';
import { forbidden, notFound } from '../src/platform/http/errors.js';
import { eventually } from '../src/platform/testing/until.js';
import { ask, openSocket, sessionAuth as authOf } from '../src/platform/realtime/testing/client.js';

type Session = Awaited<ReturnType<typeof tenantSession>>;

describe('realtime (socket.io)', () => {
  let gw: Running;
  let a: Session;
  let b: Session;
  const sockets: Socket[] = [];
  const emptied: string[] = [];
  const left: string[] = [];

  const open = async (auth: Record<string, string>) => {
    const { socket, refusal } = await openSocket(gw.url, auth);
    if (!socket) throw new Error(`refused: ${JSON.stringify(refusal)}`);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    gw = await startGateway();
    [a, b] = [await tenantSession(gw.url), await tenantSession(gw.url)];
    const rt = gw.app.realtime;
    // a tenant's own room; the tenant id comes from params so a foreign tenant can try
    rt.channel<{ tenantId: number }>('test.tenant', {
      join: (caller, params) => {
        if (caller.tenantId !== Number(params.tenantId)) throw notFound();
        return `tenant:${params.tenantId}`;
      },
      leave: (room) => void left.push(room),
    });
    rt.channel('test.locked', {
      join: () => {
        throw forbidden();
      },
    });
    rt.channel('test.broken', {
      join: () => {
        throw new Error('bug in a domain');
      },
    });
    rt.channel('test.app', { join: async (caller) => `app:${caller.app?.domain ?? 'none'}` });
    // a room for those whose role grants the device list
    rt.channel('test.devices', {
      join: (caller) => {
        if (caller.kind === 'member' && !caller.grants?.navs.has('_device_list_')) throw forbidden();
        return `devices:${caller.app?.id}`;
      },
    });
    rt.onRoomEmpty((room) => void emptied.push(room));
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await gw.stop();
  });

  it('accepts a handshake with a valid tenant session', async () => {
    const s = await open(authOf(a));
    expect(s.connected).toBe(true);
  });

  it('refuses a handshake without credentials with status 401', async () => {
    const { socket, refusal } = await openSocket(gw.url, {});
    expect(socket).toBeUndefined();
    expect(refusal).toMatchObject({ status: 401, response_result: Result.UNAUTHORIZED });
    expect(typeof refusal.message).toBe('string');
  });

  it('refuses a handshake with a wrong token with status 401', async () => {
    const { refusal } = await openSocket(gw.url, { ...authOf(a), [Header.tenantToken]: 'f'.repeat(64) });
    expect(refusal).toMatchObject({ status: 401, response_result: Result.UNAUTHORIZED });
  });

  it('refuses a handshake naming an application of another tenant with status 404', async () => {
    const other = await tenantWithApp(gw.url);
    const { refusal } = await openSocket(gw.url, authOf(a, other.domain));
    expect(refusal).toMatchObject({ status: 404 });
  });

  it('scopes the caller to the application named by x-app-domain', async () => {
    const t = await tenantWithApp(gw.url);
    const s = await open(authOf(t, t.domain));
    expect(await ask(s, 'subscribe', { channel: 'test.app' })).toEqual({ response_result: 0, room: `app:${t.domain}` });
  });

  it('subscribes to a channel and receives what is emitted to the room', async () => {
    const s = await open(authOf(a));
    const got: unknown[] = [];
    s.on('card', (p) => got.push(p));
    const ack = await ask(s, 'subscribe', { channel: 'test.tenant', params: { tenantId: a.tenant.id } });
    expect(ack).toEqual({ response_result: 0, room: `tenant:${a.tenant.id}` });
    expect(gw.app.realtime.viewers(ack.room)).toBe(1);
    gw.app.realtime.emit(ack.room, 'card', { value: 42 });
    await eventually(() => expect(got).toEqual([{ value: 42 }]));
  });

  it('answers the error envelope when join refuses, and for an unknown channel', async () => {
    const s = await open(authOf(a));
    expect(await ask(s, 'subscribe', { channel: 'test.locked', params: {} })).toMatchObject({
      response_result: Result.FORBIDDEN,
    });
    expect(await ask(s, 'subscribe', { channel: 'no.such', params: {} })).toMatchObject({
      response_result: Result.NOT_FOUND,
    });
    expect(await ask(s, 'subscribe', 'bukan objek')).toMatchObject({ response_result: Result.INVALID });
    expect(await ask(s, 'subscribe', { channel: 'test.broken' })).toMatchObject({ response_result: Result.UNEXPECTED });
    expect(s.connected).toBe(true);
  });

  it("keeps another tenant out of a room its join() refuses, and out of that room's emits", async () => {
    const mine = await open(authOf(a));
    const intruder = await open(authOf(b));
    const seen: unknown[] = [];
    intruder.on('card', (p) => seen.push(p));
    const room = (await ask(mine, 'subscribe', { channel: 'test.tenant', params: { tenantId: a.tenant.id } })).room;
    expect(
      await ask(intruder, 'subscribe', { channel: 'test.tenant', params: { tenantId: a.tenant.id } }),
    ).toMatchObject({
      response_result: Result.NOT_FOUND,
    });
    const mineGot: unknown[] = [];
    mine.on('card', (p) => mineGot.push(p));
    gw.app.realtime.emit(room, 'card', { secret: true });
    await eventually(() => expect(mineGot).toEqual([{ secret: true }]));
    expect(seen).toEqual([]);
  });

  it('stops delivering after unsubscribe and reports the room empty when its last viewer leaves', async () => {
    const s = await open(authOf(b));
    const room = (await ask(s, 'subscribe', { channel: 'test.tenant', params: { tenantId: b.tenant.id } })).room;
    expect(gw.app.realtime.viewers(room)).toBe(1);
    const got: unknown[] = [];
    s.on('card', (p) => got.push(p));
    expect(await ask(s, 'unsubscribe', { room })).toEqual({ response_result: 0 });
    expect(gw.app.realtime.viewers(room)).toBe(0);
    expect(emptied).toContain(room);
    expect(left).toContain(room);
    gw.app.realtime.emit(room, 'card', { late: true });
    // subscribed again, the next push comes through: one socket delivers in order, so the late push would be first
    expect((await ask(s, 'subscribe', { channel: 'test.tenant', params: { tenantId: b.tenant.id } })).room).toBe(room);
    gw.app.realtime.emit(room, 'card', { again: true });
    await eventually(() => expect(got).toContainEqual({ again: true }));
    expect(got).toEqual([{ again: true }]);
    expect(await ask(s, 'unsubscribe', { room })).toEqual({ response_result: 0 });
  });

  it('counts a room empty when its viewer disconnects', async () => {
    const s = await open(authOf(b));
    const room = (await ask(s, 'subscribe', { channel: 'test.tenant', params: { tenantId: b.tenant.id } })).room;
    emptied.length = 0;
    s.close();
    await eventually(() => expect(emptied).toEqual([room]));
    expect(gw.app.realtime.viewers(room)).toBe(0);
  });

  it('disconnects an open socket once its session signs out', async () => {
    const t = await tenantSession(gw.url);
    const s = await open(authOf(t));
    expect(
      (await ask(s, 'subscribe', { channel: 'test.tenant', params: { tenantId: t.tenant.id } })).response_result,
    ).toBe(Result.OK);
    const closed = new Promise((r) => s.once('disconnect', r));
    expect((await call(gw.url, authContract.tenantLogout, {}, { tenant: t.tenant })).body.response_result).toBe(0);
    await closed;
    expect((await openSocket(gw.url, authOf(t))).refusal).toMatchObject({ status: 401 });
  });

  it("takes a member's socket out of the rooms its edited role no longer opens, keeping the others", async () => {
    const owner = await tenantWithApp(gw.url);
    const m = await memberWithRole(gw.url, owner, { sys_navs: ['_device_list_'] });
    const s = await open({
      [Header.accountId]: String(m.member.id),
      [Header.accountToken]: m.member.token,
      [Header.appDomain]: owner.domain,
    });
    const devices = await ask(s, 'subscribe', { channel: 'test.devices', params: {} });
    const app = await ask(s, 'subscribe', { channel: 'test.app', params: {} });
    expect([devices.response_result, app.response_result]).toEqual([Result.OK, Result.OK]);
    const heard: string[] = [];
    s.on('ping.test', (p: { n: string }) => void heard.push(p.n));
    const edit = await call(
      gw.url,
      rolesContract.edit,
      { id: m.roleId, name: 'operator', sys_navs: [] },
      { tenant: owner.tenant, domain: owner.domain },
    );
    expect(edit.body.response_result).toBe(0);
    await eventually(() => expect(gw.app.realtime.viewers(devices.room)).toBe(0));
    gw.app.realtime.emit(devices.room, 'ping.test', { n: 'devices' });
    gw.app.realtime.emit(app.room, 'ping.test', { n: 'app' });
    await eventually(() => expect(heard).toContain('app'));
    expect(heard).toEqual(['app']);
    expect(s.connected).toBe(true);
  });

  it('disconnects the sockets whose caller matches', async () => {
    const s = await open(authOf(b));
    const closed = new Promise((r) => s.once('disconnect', r));
    expect(gw.app.realtime.disconnect((caller) => caller.tenantId === b.tenant.id)).toBeGreaterThanOrEqual(1);
    await closed;
  });
});
