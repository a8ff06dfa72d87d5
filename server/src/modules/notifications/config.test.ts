// The notification variables of server/src/platform/config.ts.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config.js';
import { CHANNEL_EXAMPLE_ENV } from './channels/env.test-kit.js';
import { createTransports } from './channels/index.js';

describe('notification configuration', () => {
  it('starts with no provider configured: only webhooks have a transport', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      SMS_API_URL: 'https://api.twilio.com',
      WEBHOOK_ALLOW_PRIVATE: 'off',
      NOTIFY_MAX_ATTEMPTS: 6,
      NOTIFY_RATE_PER_MINUTE: 60,
    });
    expect(Object.keys(createTransports(c))).toEqual(['WEBHOOK']);
  });
  it('builds a transport for each completely configured channel', () => {
    const c = loadConfig(CHANNEL_EXAMPLE_ENV);
    const t = createTransports(c);
    expect(Object.keys(t).sort()).toEqual(['EMAIL', 'SMS', 'WEBHOOK', 'WHATSAPP']);
    t.EMAIL?.close?.();
  });
  it('stops on a malformed SMTP_URL, naming the variable and hiding its value (it holds the password)', () => {
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com:25', SMTP_FROM: 'a@example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMTP_URL: 'http://secret:pw@mail.example.com', SMTP_FROM: 'a@example.com' })).toThrow(
      /SMTP_URL=\(hidden\): must be smtp/,
    );
    let thrown: unknown;
    try {
      loadConfig({ SMTP_URL: 'http://secret:pw@mail.example.com' });
    } catch (e) {
      thrown = e;
    }
    // it must stop (an accepted value would leave nothing to check) and its message must not carry the password
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(String(thrown)).toContain('SMTP_URL');
    expect(String(thrown)).not.toContain('pw@');
    expect(String(thrown)).not.toContain('secret');
  });
  it('stops on a half-configured channel, naming the missing variables', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrow(
      /SMTP_FROM=undefined: required for email notifications when SMTP_URL is set/,
    );
    expect(() => loadConfig({ SMS_ACCOUNT_SID: 'AC1' })).toThrow(/SMS_AUTH_TOKEN.*\n.*SMS_FROM/);
    expect(() => loadConfig({ WHATSAPP_TOKEN: 'x' })).toThrow(
      /WHATSAPP_PHONE_NUMBER_ID=undefined: required for WhatsApp/,
    );
  });
  it('stops on other bad values', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_FROM: 'nobody' })).toThrow(/SMTP_FROM="nobody"/);
    expect(() => loadConfig({ SMS_API_URL: 'ftp://x' })).toThrow(/SMS_API_URL/);
    expect(() => loadConfig({ WHATSAPP_PHONE_NUMBER_ID: 'abc', WHATSAPP_TOKEN: 'x' })).toThrow(
      /WHATSAPP_PHONE_NUMBER_ID="abc"/,
    );
    expect(() => loadConfig({ WEBHOOK_SECRET: 'short' })).toThrow(/WEBHOOK_SECRET=\(hidden\)/);
    expect(() => loadConfig({ NOTIFY_MAX_ATTEMPTS: '0' })).toThrow(/NOTIFY_MAX_ATTEMPTS/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });
});
