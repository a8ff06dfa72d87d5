import { describe, expect, it } from 'vitest';
import { T } from '../text/id.js';
import { brokerParts, connectionGuide, shellWord } from './deviceConnection.js';

const words = T.devices.connect.words;

describe('what a device needs to connect (issue 38)', () => {
  it('reads host, port and TLS from the broker URL (mqtts: TLS, 8883 by default)', () => {
    expect(brokerParts('mqtt://10.0.0.9:1883')).toEqual({ host: '10.0.0.9', port: 1883, tls: false });
    expect(brokerParts('mqtts://iot.example.com')).toEqual({ host: 'iot.example.com', port: 8883, tls: true });
    expect(brokerParts('mqtt://[fd00::5]:1883')).toEqual({ host: 'fd00::5', port: 1883, tls: false });
  });
  it('quotes a shell word only when it must, a quote inside kept', () => {
    expect(shellWord('mqtt_0a1b')).toBe('mqtt_0a1b');
    expect(shellWord('{"a":1}')).toBe(`'{"a":1}'`);
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
  it('gives a generic device its d/<id>/ topics and a mosquitto_pub line for its data topic', () => {
    const g = connectionGuide(
      {
        kind: 'mqtt',
        brokerUrl: 'mqtt://iot.local:1883',
        wsUrl: 'ws://iot.local/mqtt',
        username: 'mqtt_a',
        password: 'p-w_1',
        deviceId: 7,
      },
      words,
    );
    expect(g.topics.map((t) => `${t.direction} ${t.topic}`)).toEqual([
      'publish d/7/data',
      'publish d/7/state',
      'subscribe d/7/cmd',
      'publish d/7/cmd/res',
    ]);
    expect(g.mosquittoPub).toBe(
      `mosquitto_pub -h iot.local -p 1883 -u mqtt_a -P p-w_1 -q 1 -t d/7/data -m '{"suhu":{"data":{"celsius":24.5,"kelembapan":61}}}'`,
    );
    expect(g.tasmotaBacklog).toBeUndefined();
  });
  it("gives a gateway its UID as client id, and a TLS broker the system's certificates", () => {
    const g = connectionGuide(
      { kind: 'gateway', brokerUrl: 'mqtts://iot.example.com', wsUrl: '', username: 'ZL1', password: 's', uid: 'ZL1' },
      words,
    );
    expect(g).toMatchObject({ host: 'iot.example.com', port: 8883, tls: true, clientId: 'ZL1' });
    expect(g.mosquittoPub).toContain('-p 8883 --capath /etc/ssl/certs -i ZL1 -u ZL1');
    expect(g.example.topic).toBe('gw/ZL1/up');
  });
  it('gives a Tasmota its tele/stat/cmnd topics and one Backlog line (TLS builds told with SetOption103)', () => {
    const input = {
      kind: 'tasmota' as const,
      brokerUrl: 'mqtt://10.0.0.9:1883',
      wsUrl: '',
      username: 'tasmota_a',
      password: 'pw',
      topic: 'sentra_01',
    };
    const g = connectionGuide(input, words);
    expect(g.topics.map((t) => t.topic)).toEqual([
      'tele/sentra_01/SENSOR',
      'tele/sentra_01/STATE',
      'tele/sentra_01/LWT',
      'cmnd/sentra_01/#',
      'stat/sentra_01/RESULT',
    ]);
    expect(g.tasmotaBacklog).toBe(
      'Backlog MqttHost 10.0.0.9; MqttPort 1883; MqttUser tasmota_a; MqttPassword pw; Topic sentra_01; FullTopic %prefix%/%topic%/',
    );
    expect(connectionGuide({ ...input, brokerUrl: 'mqtts://iot.example.com' }, words).tasmotaBacklog).toMatch(
      /MqttPort 8883; .* SetOption103 1$/,
    );
  });
});
