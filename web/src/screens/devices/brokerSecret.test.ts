import { describe, expect, it } from 'vitest';
import { T, familyByKey } from '@sentra/contracts';
import { hasBrokerSecret, shownSecretOf } from './BrokerSecretPanel.js';
import { familyInfoRows } from './DeviceInfoPage.js';

const connection = {
  mqtt_host: 'h',
  mqtt_port: 1883,
  mqtt_url: 'mqtt://h:1883',
  ws_url: 'ws://h:8080/mqtt',
  client_id: 'ZL1',
  username: 'ZL1',
  up_topic: 'gw/ZL1/up',
  down_topic: 'gw/ZL1/down',
};

describe('broker secrets on the device screens', () => {
  it('finds the secret an add answer shows once, per family', () => {
    expect(
      shownSecretOf(familyByKey('zlan'), {
        zlan_dev_uid: 'ZL1',
        gateway_connection: connection,
        gateway_secret: 's3cret',
      }),
    ).toEqual({ secret: 's3cret', username: 'ZL1', connection, kind: 'gateway' });
    expect(
      shownSecretOf(familyByKey('mqtt'), {
        store_mqtt_username: 'mqtt_a',
        store_mqtt_password: 'pw',
        store_mqtt_url: 'mqtt://h:1',
        id: 7,
      }),
    ).toEqual({ secret: 'pw', username: 'mqtt_a', brokerUrl: 'mqtt://h:1', kind: 'mqtt', deviceId: 7 });
    expect(
      shownSecretOf(familyByKey('tasmota'), {
        username: 'tasmota_a',
        password: 'pw',
        device_mqtt_url: 'mqtt://h:1',
        topic: 'sentra_ab',
      }),
    ).toMatchObject({ secret: 'pw', username: 'tasmota_a', kind: 'tasmota', topic: 'sentra_ab' });
    // a get answer: nothing to show
    expect(shownSecretOf(familyByKey('zlan'), { zlan_dev_uid: 'ZL1', gateway_connection: connection })).toBeUndefined();
    expect(
      shownSecretOf(familyByKey('mqtt'), { store_mqtt_username: 'mqtt_a', store_mqtt_password: '' }),
    ).toBeUndefined();
    expect(shownSecretOf(familyByKey('dummy'), { id: 1 })).toBeUndefined();
    expect(['zlan', 'mqtt', 'tasmota', 'sentraGateway'].every((k) => hasBrokerSecret(familyByKey(k)))).toBe(true);
    expect(['dummy', 'lora', 'sentraEnd'].some((k) => hasBrokerSecret(familyByKey(k)))).toBe(false);
  });
  it('shows a stored password as kept as a hash, and a gateway its connection settings', () => {
    const mqtt = familyInfoRows(familyByKey('mqtt')!, {
      store_mqtt_url: 'u',
      store_mqtt_username: 'mqtt_a',
      store_mqtt_password: '',
      store_mqtt_mode: 'json',
      store_mqtt_details: {},
      store_mqtt_topic: 'd/1',
    });
    expect(mqtt.find((r) => r.field === 'store_mqtt_password')?.value).toBe(T.devices.secretHidden);
    const zlan = familyInfoRows(familyByKey('zlan')!, { zlan_dev_uid: 'ZL1', gateway_connection: connection });
    expect(zlan.map((r) => [r.label, r.value])).toEqual(
      expect.arrayContaining([
        [T.devices.clientId, 'ZL1'],
        [T.devices.brokerWsUrl, 'ws://h:8080/mqtt'],
        [T.devices.gatewaySecret, T.devices.secretHidden],
        [T.devices.downTopic, 'gw/ZL1/down'],
      ]),
    );
  });
  it("shows what a Tasmota's discovery told (MAC, relays, sensors) as text, and a placeholder before any", () => {
    const base = {
      device_mqtt_url: 'u',
      username: 'tasmota_a',
      password: '',
      topic: 'tasmota_ABCDEF',
      full_topic: '%prefix%/%topic%/',
    };
    const none = familyInfoRows(familyByKey('tasmota')!, { ...base, tasmota_discovery: null });
    expect(none.find((r) => r.field === 'tasmota_discovery')).toEqual({
      field: 'tasmota_discovery',
      label: T.devices.infoTasmotaDiscovery,
      value: '-',
    });
    const discovery = {
      mac: 'A4CF12ABCDEF',
      ip: '10.0.0.5',
      hostname: '<b>h</b>',
      model: 'Sonoff Basic',
      version: '14.3.0',
      relays: [1, 0],
      friendly_names: ['Pompa', null],
      sensors: { ENERGY: { Power: 7 } },
    };
    const rows = familyInfoRows(familyByKey('tasmota')!, { ...base, tasmota_discovery: discovery });
    expect(JSON.parse(rows.find((r) => r.field === 'tasmota_discovery')!.value)).toEqual(discovery);
  });
});
