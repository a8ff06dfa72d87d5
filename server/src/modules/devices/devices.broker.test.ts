// The device broker authority without a broker: who each credential is, and that every identity keeps to its topics.
import { describe, expect, it } from 'vitest';
import { hashBrokerSecret } from '../../platform/crypto.js';
import { createDeviceAuthority, topicRules } from './devices.broker.js';
import type { DeviceRow } from './devices.table.js';
import { isUnder, type DeviceIdentity } from './families/index.js';

const row = (over: Partial<DeviceRow>): DeviceRow =>
  ({
    id: 1,
    appId: 7,
    disabled: false,
    tokenId: null,
    uid: null,
    topic: null,
    brokerUsername: null,
    brokerPassword: null,
    ...over,
  }) as DeviceRow;
const rows = [
  row({ id: 1, brokerUsername: 'mqtt_a', brokerPassword: hashBrokerSecret('rahasia') }),
  row({ id: 2, brokerUsername: 'tasmota_b', brokerPassword: hashBrokerSecret('sandi'), topic: 'sentra_b' }),
  row({
    id: 8,
    brokerUsername: 'tasmota_k',
    brokerPassword: hashBrokerSecret('sandi'),
    topic: 'sentra_k',
    details: JSON.stringify({ tasmota_discovery: { mac: '001122334455' } }),
  }),
  row({ id: 3, uid: 'ZL-01', brokerPassword: hashBrokerSecret('gw-secret') }),
  row({ id: 4, uid: 'ZL-OFF', disabled: true, brokerPassword: hashBrokerSecret('off') }),
  row({ id: 5, tokenId: 9 }),
  // registered before gateways had secrets: no password opens it
  row({ id: 6, uid: 'ZL-OLD' }),
  // a plain-text password (older database not yet migrated) is no credential
  row({ id: 7, brokerUsername: 'mqtt_plain', brokerPassword: 'polos' }),
];
const token = 'a'.repeat(64);
const authority = createDeviceAuthority(
  {
    byBrokerUsername: async (u) => rows.find((r) => r.brokerUsername === u),
    byUid: async (u) => rows.find((r) => r.uid === u),
    byToken: async (t) => rows.find((r) => r.tokenId === t),
  },
  {
    tokenByValue: async (t) =>
      t === token ? { id: 9, appId: 7, tokenHash: '', createdAt: 0, connectedAt: 1 } : undefined,
    // one unregistered UID a client address at most (activation.ts bounds them)
    admitUnclaimed: (uid, address) => address !== '10.0.0.66' || uid === 'ZL-FIRST',
  },
  async (id, secret) => (id === 'ns' && secret === 'pair' ? { appId: 7, credentialsRowId: 3 } : null),
  undefined,
  (appId) => (appId === 7 ? 70 : undefined),
);
const auth = (clientId: string, username?: string, password?: string, address?: string) =>
  authority.authenticate(
    clientId,
    username,
    password === undefined ? undefined : Buffer.from(password),
    address,
  ) as Promise<DeviceIdentity | null>;

describe('device authority', () => {
  it('knows MQTT and Tasmota devices by username and password only', async () => {
    expect(await auth('c', 'mqtt_a', 'rahasia')).toMatchObject({
      key: 'device:1',
      role: 'device',
      deviceId: 1,
      appId: 7,
    });
    // refused as an unknown username is (not authorised): the answer does not tell which usernames exist
    expect(await auth('c', 'mqtt_a', 'salah')).toMatchObject({ refused: true, returnCode: 5 });
    expect(await auth('c', 'mqtt_a')).toMatchObject({ refused: true, returnCode: 5 });
    // the stored hash itself is not the password
    expect(await auth('c', 'mqtt_a', hashBrokerSecret('rahasia'))).toMatchObject({ refused: true, returnCode: 5 });
    expect(await auth('c', 'mqtt_plain', 'polos')).toMatchObject({ refused: true, returnCode: 5 });
    expect(await auth('c', 'tasmota_b', 'sandi')).toMatchObject({ role: 'tasmota', topic: 'sentra_b' });
  });
  it('knows token devices by their token, gateways by UID as username and client id, network servers by their pair', async () => {
    expect(await auth('x', token)).toMatchObject({ role: 'token', tokenId: 9, deviceId: 5 });
    expect(await auth('ZL-01', 'ZL-01', 'gw-secret')).toMatchObject({ role: 'gateway', deviceId: 3, uid: 'ZL-01' });
    expect(await auth('ZL-NEW', 'ZL-NEW')).toMatchObject({
      role: 'unclaimedGateway',
      uid: 'ZL-NEW',
      provisional: true,
    });
    expect(await auth('other', 'ZL-NEW')).toBeNull();
    expect(await auth('ZL-OFF', 'ZL-OFF', 'off')).toBeNull();
    expect(await auth('x', 'ns', 'pair')).toMatchObject({ role: 'networkServer', appId: 7 });
    expect(await auth('x', 'ns', 'bukan')).toBeNull();
    expect(await auth('x', undefined)).toBeNull();
  });
  it("gives an application's identities its tenant, none to a gateway nobody registered", async () => {
    expect(await auth('c', 'mqtt_a', 'rahasia')).toMatchObject({ appId: 7, tenantId: 70 });
    expect(await auth('x', token)).toMatchObject({ appId: 7, tenantId: 70 });
    expect((await auth('ZL-NEW', 'ZL-NEW'))?.tenantId).toBeUndefined();
  });
  it('refuses an unregistered gateway from an address that already brought its share of them', async () => {
    expect(await auth('ZL-FIRST', 'ZL-FIRST', undefined, '10.0.0.66')).toMatchObject({ role: 'unclaimedGateway' });
    expect(await auth('ZL-MORE', 'ZL-MORE', undefined, '10.0.0.66')).toMatchObject({ refused: true, returnCode: 5 });
    expect(await auth('ZL-MORE', 'ZL-MORE', undefined, '10.0.0.67')).toMatchObject({ role: 'unclaimedGateway' });
  });
  it('refuses a registered gateway signing in with its UID alone or a wrong secret (bad username or password)', async () => {
    expect(await auth('ZL-01', 'ZL-01')).toMatchObject({ refused: true, returnCode: 4 });
    expect(await auth('ZL-01', 'ZL-01', 'tebakan')).toMatchObject({ refused: true, returnCode: 4 });
    expect(await auth('ZL-OLD', 'ZL-OLD')).toMatchObject({ refused: true, returnCode: 4 });
    expect(await auth('ZL-OLD', 'ZL-OLD', '')).toMatchObject({ refused: true, returnCode: 4 });
  });
  it('binds a Tasmota session to the MAC of its first discovery publish', async () => {
    const t = (await auth('c', 'tasmota_b', 'sandi'))!;
    expect(authority.authorizePublish(t, 'tasmota/discovery/A4CF12ABCDEF/sensors')).toBe(true);
    expect(authority.authorizePublish(t, 'tasmota/discovery/A4CF12ABCDEF/config')).toBe(true);
    expect(authority.authorizePublish(t, 'tasmota/discovery/001122334455/config')).toBe(false);
    // a discovery the device already kept binds it from sign-in on
    const kept = (await auth('c', 'tasmota_k', 'sandi'))!;
    expect(kept.mac).toBe('001122334455');
    expect(authority.authorizePublish(kept, 'tasmota/discovery/A4CF12ABCDEF/config')).toBe(false);
    expect(authority.authorizePublish(kept, 'tasmota/discovery/001122334455/config')).toBe(true);
  });
  it('keeps every identity to its own topics', () => {
    const device = topicRules({ key: 'device:1', role: 'device', deviceId: 1 });
    expect(device.publish('d/1/data')).toBe(true);
    expect(device.publish('d/2/data')).toBe(false);
    expect(device.subscribe('d/1/#')).toBe(true);
    expect(device.subscribe('d/+/cmd')).toBe(false);
    expect(device.subscribe('#')).toBe(false);
    const tasmota = topicRules({ key: 'device:2', role: 'tasmota', deviceId: 2, topic: 'sentra_b' });
    expect(tasmota.publish('tele/sentra_b/SENSOR')).toBe(true);
    expect(tasmota.publish('stat/sentra_b/RESULT')).toBe(true);
    // its connect sequence's empty POWER query and its discovery (issue 27); no other command topic
    expect(tasmota.publish('cmnd/sentra_b/POWER')).toBe(true);
    expect(tasmota.publish('cmnd/sentra_b/Backlog')).toBe(false);
    expect(tasmota.publish('cmnd/sentra_a/POWER')).toBe(false);
    expect(tasmota.publish('tasmota/discovery/A4CF12ABCDEF/config')).toBe(true);
    expect(tasmota.publish('tasmota/discovery/a4cf12abcdef/config')).toBe(false);
    expect(tasmota.publish('tasmota/discovery/A4CF12ABCDEF/other')).toBe(false);
    const named = topicRules({ key: 'device:2', role: 'tasmota', deviceId: 2, topic: 'sentra_b', mac: 'A4CF12ABCDEF' });
    expect(named.publish('tasmota/discovery/A4CF12ABCDEF/sensors')).toBe(true);
    expect(named.publish('tasmota/discovery/001122334455/sensors')).toBe(false);
    expect(tasmota.subscribe('cmnd/sentra_b/#')).toBe(true);
    expect(tasmota.subscribe('cmnd/+/#')).toBe(false);
    const unclaimed = topicRules({ key: 'gateway:X', role: 'unclaimedGateway', uid: 'X' });
    expect(unclaimed.publish('gw/X/up')).toBe(true);
    expect(unclaimed.publish('gw/X/down')).toBe(false);
    expect(unclaimed.subscribe('gw/X/#')).toBe(false);
    expect(topicRules({ key: 'device:3', role: 'gateway', uid: 'X', deviceId: 3 }).subscribe('gw/X/down')).toBe(true);
    expect(
      topicRules({ key: 'ns:3', role: 'networkServer', appId: 7 }).publish(
        'application/7/device/0102030405060708/event/up',
      ),
    ).toBe(true);
    expect(
      topicRules({ key: 'ns:3', role: 'networkServer', appId: 7 }).publish(
        'application/8/device/0102030405060708/event/up',
      ),
    ).toBe(false);
    expect(topicRules({ key: 'token:1', role: 'token', tokenId: 1 }).publish('d/undefined/data')).toBe(false);
  });
  it('treats wildcards in the identity levels as foreign', () => {
    expect(isUnder('d/1/x', 'd', '1')).toBe(true);
    expect(isUnder('d/1', 'd', '1')).toBe(false);
    expect(isUnder('d/#', 'd', '1')).toBe(false);
  });
});
