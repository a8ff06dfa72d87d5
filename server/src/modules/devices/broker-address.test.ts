import { describe, expect, it } from 'vitest';
import { brokerAddress } from './broker-address.js';

const config = { bindHost: '127.0.0.1', mqttPort: 1883, httpPort: 8080 };

describe('the broker address devices are told (issue 38)', () => {
  it('is the host the console was reached at with the broker port, never the bind address', () => {
    expect(brokerAddress(config, { host: 'iot.pabrik.local:8080' })).toEqual({
      url: 'mqtt://iot.pabrik.local:1883',
      host: 'iot.pabrik.local',
      port: 1883,
      tls: false,
      wsUrl: 'ws://iot.pabrik.local:8080/mqtt',
    });
    expect(brokerAddress(config, { host: '192.168.1.20:8080', secure: true })).toMatchObject({
      url: 'mqtt://192.168.1.20:1883',
      wsUrl: 'wss://192.168.1.20:8080/mqtt',
    });
    expect(brokerAddress(config, { host: '[fd00::5]:8080' })).toMatchObject({
      url: 'mqtt://[fd00::5]:1883',
      host: 'fd00::5',
    });
  });
  it('is MQTT_PUBLIC_URL when set, TLS for mqtts (8883 by default)', () => {
    const pub = { ...config, publicUrl: 'mqtts://iot.example.com' };
    expect(brokerAddress(pub, { host: 'console.example.com' })).toEqual({
      url: 'mqtts://iot.example.com:8883',
      host: 'iot.example.com',
      port: 8883,
      tls: true,
      wsUrl: 'ws://console.example.com/mqtt',
    });
    expect(brokerAddress({ ...config, publicUrl: 'mqtt://10.0.0.9:11883' })).toMatchObject({
      url: 'mqtt://10.0.0.9:11883',
      port: 11883,
      tls: false,
    });
  });
  it('does not repeat a Host header that is no host (a client may send anything), nor 0.0.0.0', () => {
    for (const host of ["evil.com'; rm -rf /", 'a b', 'x'.repeat(300), ''])
      expect(brokerAddress(config, { host }).url).toBe('mqtt://127.0.0.1:1883');
    expect(brokerAddress({ ...config, bindHost: '0.0.0.0' }).url).toBe('mqtt://127.0.0.1:1883');
  });
});
