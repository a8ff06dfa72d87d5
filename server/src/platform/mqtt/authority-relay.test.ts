import { describe, expect, it } from 'vitest';
import { errorCollector } from '../testing/logs.js';
import { createConnectThrottle } from '../mqtt-connect-throttle.js';
import { AuthorityRelay, NOT_AUTHORIZED, SERVER_UNAVAILABLE } from './authority-relay.js';
import { badCredentials, type BrokerAuthority, type MqttIdentity } from './types.js';

const log = errorCollector();
const errors = log.errors;

/** an authority that knows the user names in `users` (password "ok"), may publish under `own/` and subscribe `in/#` */
function authority(users: string[], kind = 'device'): BrokerAuthority {
  return {
    authenticate: (_clientId, username, password) => {
      if (!username || !users.includes(username)) return null;
      if (password?.toString() !== 'ok') return badCredentials('wrong password');
      return { key: `${kind}:${username}` } as MqttIdentity;
    },
    authorizePublish: (_identity, topic) => topic.startsWith('own/'),
    authorizeSubscribe: (_identity, topic) => topic === 'in/#',
  };
}

const pw = (s: string) => Buffer.from(s);

describe('authority relay (the broker threads ask the event loop)', () => {
  it('asks the authorities in order and admits the client with the identity of the first that knows it', async () => {
    const relay = new AuthorityRelay(log, () => undefined);
    const devices = authority(['d1']);
    const users = authority(['u1'], 'user');
    relay.add(devices);
    relay.add(users);
    const r = await relay.admit('c1', 'u1', pw('ok'), '127.0.0.1');
    expect(r).toEqual({ identity: { key: 'user:u1' }, authority: users });
  });

  it('refuses anonymous clients, unknown ones, and ends the search at an authority that refuses', async () => {
    const relay = new AuthorityRelay(log, () => undefined);
    relay.add(authority(['d1']));
    relay.add(authority(['d1'], 'other'));
    expect(await relay.admit('c', undefined, undefined, undefined)).toEqual({
      returnCode: NOT_AUTHORIZED,
      message: 'anonymous clients are refused',
    });
    expect(await relay.admit('c', 'nobody', pw('ok'), undefined)).toEqual({
      returnCode: NOT_AUTHORIZED,
      message: 'unknown client',
    });
    expect(await relay.admit('c', 'd1', pw('wrong'), undefined)).toEqual({ returnCode: 4, message: 'wrong password' });
  });

  it('answers "unavailable" when an authority throws or returns an identity without key', async () => {
    errors.length = 0;
    const relay = new AuthorityRelay(log, () => undefined);
    relay.add({
      ...authority([]),
      authenticate: (clientId) => (clientId === 'boom' ? Promise.reject(new Error('db down')) : ({} as MqttIdentity)),
    });
    for (const clientId of ['boom', 'keyless'])
      expect(await relay.admit(clientId, 'x', pw('ok'), undefined)).toEqual({
        returnCode: SERVER_UNAVAILABLE,
        message: 'authentication unavailable',
      });
    expect(errors).toEqual(['MQTT authority failed for client boom', 'MQTT authority failed for client keyless']);
  });

  it('never lets one identity take over a client id another identity holds', async () => {
    const relay = new AuthorityRelay(log, (clientId) => (clientId === 'taken' ? 'device:d2' : undefined));
    relay.add(authority(['d1', 'd2']));
    expect(await relay.admit('taken', 'd1', pw('ok'), undefined)).toEqual({
      returnCode: NOT_AUTHORIZED,
      message: 'client id in use by another identity',
    });
    expect(await relay.admit('taken', 'd2', pw('ok'), undefined)).toMatchObject({ identity: { key: 'device:d2' } });
  });

  it("counts a username's refusals per address and then refuses that pair without asking any authority", async () => {
    const throttle = createConnectThrottle({ failuresPerMinute: 2 });
    let asked = 0;
    const relay = new AuthorityRelay(log, () => undefined, throttle);
    const a = authority(['d1', 'd2']);
    relay.add({ ...a, authenticate: (...args) => (asked++, a.authenticate(...args)) });
    await relay.admit('c', 'd1', pw('wrong'), '10.0.0.9');
    await relay.admit('c', 'd1', pw('wrong'), '10.0.0.9');
    expect(await relay.admit('c', 'd1', pw('ok'), '10.0.0.9')).toEqual({
      returnCode: NOT_AUTHORIZED,
      message: 'too many failed CONNECTs for this username here',
    });
    expect(asked).toBe(2);
    // its neighbour behind the same address, and the username from another address, sign in
    expect(await relay.admit('c2', 'd2', pw('ok'), '10.0.0.9')).toMatchObject({ identity: { key: 'device:d2' } });
    expect(await relay.admit('c', 'd1', pw('ok'), '10.0.0.10')).toMatchObject({ identity: { key: 'device:d1' } });
    expect(throttle.metrics()).toMatchObject({ throttled_connects: 1, failed_connects: 2 });
  });

  it('counts a client admitted without credentials on its address, and refuses it past the limit', async () => {
    const throttle = createConnectThrottle({ failuresPerMinute: 2, unknownPerMinute: 1 });
    const relay = new AuthorityRelay(log, () => undefined, throttle);
    relay.add({
      authenticate: (_c, username) => ({ key: `gateway:${username}`, provisional: true }),
      authorizePublish: () => true,
      authorizeSubscribe: () => false,
    });
    expect(await relay.admit('G1', 'G1', undefined, '10.0.0.11')).toMatchObject({ identity: { key: 'gateway:G1' } });
    expect(await relay.admit('G2', 'G2', undefined, '10.0.0.11')).toEqual({
      returnCode: NOT_AUTHORIZED,
      message: 'too many clients without credentials from this address',
    });
    expect(await relay.admit('G3', 'G3', undefined, '10.0.0.12')).toMatchObject({ identity: { key: 'gateway:G3' } });
  });

  it("authorises a live session's publishes and subscriptions by its authority, never reserved topics", () => {
    errors.length = 0;
    const relay = new AuthorityRelay(log, () => undefined);
    const a = authority(['d1']);
    const session = { identity: { key: 'device:d1' } as MqttIdentity, authority: a, gone: false };
    expect(relay.allowed(session, 'own/x', 'publish')).toBe(true);
    expect(relay.allowed(session, 'other/x', 'publish')).toBe(false);
    expect(relay.allowed(session, 'in/#', 'subscribe')).toBe(true);
    expect(relay.allowed(session, 'own/x', 'subscribe')).toBe(false);
    expect(relay.allowed({ ...session, authority: { ...a, authorizePublish: () => true } }, '$SYS/x', 'publish')).toBe(
      false,
    );
    expect(relay.allowed({ ...session, gone: true }, 'own/x', 'publish')).toBe(false);
    expect(relay.allowed(undefined, 'own/x', 'publish')).toBe(false);
    const throwing = {
      ...a,
      authorizePublish: () => {
        throw new Error('bug');
      },
    };
    expect(relay.allowed({ ...session, authority: throwing }, 'own/x', 'publish')).toBe(false);
    expect(errors).toEqual(['MQTT authority failed authorising publish on own/x']);
  });
});
