import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      MQTT_PORT: 1883,
      DATA_DIR: './data',
      BUS: 'memory',
      DEMO: 'off',
    });
  });
  it('names the variable and the value on a bad setting', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ BUS: 'kafka' })).toThrow(/BUS="kafka"/);
  });
  it('reads TRUST_PROXY, the balancers whose X-Forwarded-For is believed: none unless named', () => {
    expect(loadConfig({}).TRUST_PROXY).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).TRUST_PROXY).toEqual(['10.0.0.0/8', 'loopback']);
    expect(() => loadConfig({ TRUST_PROXY: 'haproxy.local' })).toThrow(/TRUST_PROXY/);
  });
  it('reads MQTT_PUBLIC_URL, the address devices use: mqtt:// or mqtts:// with a host, nothing more', () => {
    expect(loadConfig({}).MQTT_PUBLIC_URL).toBeUndefined();
    expect(loadConfig({ MQTT_PUBLIC_URL: 'mqtts://iot.example.com:8883' }).MQTT_PUBLIC_URL).toBe(
      'mqtts://iot.example.com:8883',
    );
    expect(loadConfig({ MQTT_PUBLIC_URL: 'mqtt://10.0.0.9' }).MQTT_PUBLIC_URL).toBe('mqtt://10.0.0.9');
    for (const bad of ['iot.example.com:1883', 'http://iot.example.com', 'mqtt://u:p@iot.example.com', 'mqtt://h/x'])
      expect(() => loadConfig({ MQTT_PUBLIC_URL: bad })).toThrow(/MQTT_PUBLIC_URL/);
  });
  it('reads DATABASE_URL (PostgreSQL; unset: SQLite in DATA_DIR) and its pool size, never printing the URL', () => {
    expect(loadConfig({}).DATABASE_URL).toBeUndefined();
    expect(loadConfig({}).DATABASE_POOL_SIZE).toBe(16);
    expect(loadConfig({ DATABASE_URL: 'postgres://sentra:rahasia@127.0.0.1:5432/sentra' }).DATABASE_URL).toBe(
      'postgres://sentra:rahasia@127.0.0.1:5432/sentra',
    );
    expect(loadConfig({ DATABASE_URL: 'postgresql:///sentra?host=/run/postgresql' }).DATABASE_URL).toContain('sentra');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://sentra:rahasia@db/sentra' })).toThrow(
      /DATABASE_URL=\(hidden\): must be postgres:\/\//,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://sentra:rahasia@db' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://sentra:rahasia@db' })).not.toThrow(/rahasia/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '1' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it("reads the command wait COMMAND_TIMEOUT_MS (unset: the commands module's default)", () => {
    expect(loadConfig({}).COMMAND_TIMEOUT_MS).toBeUndefined();
    expect(loadConfig({ COMMAND_TIMEOUT_MS: '3000' }).COMMAND_TIMEOUT_MS).toBe(3000);
    expect(() => loadConfig({ COMMAND_TIMEOUT_MS: '10' })).toThrow(/COMMAND_TIMEOUT_MS/);
  });
  it('reads MQTT_FAST_PATH: on unless turned off', () => {
    expect(loadConfig({}).MQTT_FAST_PATH).toBe('on');
    expect(loadConfig({ MQTT_FAST_PATH: 'off' }).MQTT_FAST_PATH).toBe('off');
    expect(() => loadConfig({ MQTT_FAST_PATH: 'plain' })).toThrow(/MQTT_FAST_PATH/);
  });
  it('reads the MQTT CONNECT failure limit and the sealing key settings, never printing a key', () => {
    expect(loadConfig({}).MQTT_AUTH_FAILURES_PER_MINUTE).toBe(20);
    expect(() => loadConfig({ MQTT_AUTH_FAILURES_PER_MINUTE: '0' })).toThrow(/MQTT_AUTH_FAILURES_PER_MINUTE/);
    expect(loadConfig({ SEAL_KEY: 'ab'.repeat(32) }).SEAL_KEY).toBe('ab'.repeat(32));
    expect(loadConfig({ SEAL_KEY: Buffer.alloc(32, 7).toString('base64') }).SEAL_KEY).toBeDefined();
    expect(() => loadConfig({ SEAL_KEY: 'rahasia-pendek' })).toThrow(/SEAL_KEY=\(hidden\): must be 32 bytes/);
    expect(() => loadConfig({ SEAL_KEY: 'rahasia-pendek' })).not.toThrow(/rahasia-pendek/);
    expect(() => loadConfig({ SENTRA_SECRETS_KEY: 'xyz' })).toThrow(/SENTRA_SECRETS_KEY/);
  });
  it('reads the session lifetime and throttle settings, with 12 h idle, 7 days, 10 per minute and 10 per hour by default', () => {
    expect(loadConfig({})).toMatchObject({
      SESSION_IDLE_TIMEOUT_S: 43_200,
      SESSION_MAX_AGE_S: 604_800,
      LOGIN_THROTTLE_ATTEMPTS: 10,
      LOGIN_THROTTLE_WINDOW_S: 60,
      REGISTER_THROTTLE_ATTEMPTS: 10,
      REGISTER_THROTTLE_WINDOW_S: 3600,
    });
    expect(loadConfig({ SESSION_IDLE_TIMEOUT_S: '600' }).SESSION_IDLE_TIMEOUT_S).toBe(600);
    expect(() => loadConfig({ SESSION_MAX_AGE_S: '0' })).toThrow(/SESSION_MAX_AGE_S="0"/);
    expect(() => loadConfig({ LOGIN_THROTTLE_ATTEMPTS: 'viele' })).toThrow(/LOGIN_THROTTLE_ATTEMPTS/);
    expect(() => loadConfig({ REGISTER_THROTTLE_WINDOW_S: '-5' })).toThrow(/REGISTER_THROTTLE_WINDOW_S/);
  });
  it('takes per-command defaults (npm start turns DEMO on)', () => {
    expect(loadConfig({}, { DEMO: 'on' }).DEMO).toBe('on');
    expect(loadConfig({ DEMO: 'off' }, { DEMO: 'on' }).DEMO).toBe('off');
  });
});
