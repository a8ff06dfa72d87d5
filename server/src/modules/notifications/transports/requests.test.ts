import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { smsRequest, SMS_BODY_MAX } from '../channels/sms/transport.js';
import { whatsappRequest } from '../channels/whatsapp/transport.js';
import { signature, webhookRequest } from '../channels/webhook/transport.js';
import { DEFAULT_SUBJECT, emailMessage } from '../channels/email/transport.js';
import { checkLiteralHost, isPublicAddress } from '../channels/webhook/address-guard.js';
import { checkAnswer } from './http.js';
import { DeliveryError, type OutgoingMessage } from './transport.js';

const m = (over: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  id: 42,
  appId: 10,
  taskId: 5,
  ruleId: 3,
  event: 'new',
  recipient: '+6281234567890',
  subject: 'Tangki hampir kosong',
  body: 'Level solar 9 % di Genset-01',
  createdAt: 1_700_000_000_000,
  ...over,
});

describe('the SMS request (Twilio-style messages API)', () => {
  const s = {
    apiUrl: 'https://sms.example/',
    accountSid: 'AC123',
    authToken: 'tok',
    from: '+15005550006',
    timeoutMs: 1000,
  };
  it('posts the form To, From, Body to /2010-04-01/Accounts/{sid}/Messages.json with basic auth', () => {
    const r = smsRequest(s, m());
    expect(r.url.href).toBe('https://sms.example/2010-04-01/Accounts/AC123/Messages.json');
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from('AC123:tok').toString('base64')}`);
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(r.body))).toEqual({
      To: '+6281234567890',
      From: '+15005550006',
      Body: 'Tangki hampir kosong\nLevel solar 9 % di Genset-01',
    });
  });
  it("cuts a body beyond Twilio's 1,600 characters", () => {
    const body = new URLSearchParams(smsRequest(s, m({ subject: null, body: 'x'.repeat(5000) })).body).get('Body')!;
    expect(body).toHaveLength(SMS_BODY_MAX);
    expect(body.endsWith('…')).toBe(true);
  });
});

describe('the WhatsApp Cloud API request', () => {
  it('posts a text message to /{phone-number-id}/messages with the bearer token, the number without +', () => {
    const r = whatsappRequest(
      { apiUrl: 'https://graph.example/v21.0', phoneNumberId: '1234567890', token: 'EAAG', timeoutMs: 1000 },
      m(),
    );
    expect(r.url.href).toBe('https://graph.example/v21.0/1234567890/messages');
    expect(r.headers.authorization).toBe('Bearer EAAG');
    expect(JSON.parse(r.body)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '6281234567890',
      type: 'text',
      text: { preview_url: false, body: '*Tangki hampir kosong*\nLevel solar 9 % di Genset-01' },
    });
  });
});

describe('the webhook request', () => {
  it('posts the notification as JSON with its delivery id, and a JSON body also parsed as data', () => {
    const r = webhookRequest(
      { allowPrivate: true, timeoutMs: 1000, now: () => 1_700_000_000_500 },
      m({ recipient: 'https://hooks.example/in', body: '{"device":"Genset-01","value":9}' }),
    );
    expect(r.url.href).toBe('https://hooks.example/in');
    expect(r.headers['x-sentra-delivery']).toBe('42');
    expect(r.headers['x-sentra-signature']).toBeUndefined();
    expect(JSON.parse(r.body)).toEqual({
      id: 42,
      event: 'new',
      app_id: 10,
      task_id: 5,
      rule_id: 3,
      subject: 'Tangki hampir kosong',
      text: '{"device":"Genset-01","value":9}',
      data: { device: 'Genset-01', value: 9 },
      created_at: 1_700_000_000_000,
      sent_at: 1_700_000_000_500,
    });
  });
  it('signs timestamp and body with HMAC-SHA256 when a secret is set', () => {
    const secret = 'a-secret-of-16-chars';
    const r = webhookRequest(
      { secret, allowPrivate: true, timeoutMs: 1000, now: () => 1_700_000_000_500 },
      m({ recipient: 'https://hooks.example/in' }),
    );
    const expected = crypto.createHmac('sha256', secret).update(`1700000000500.${r.body}`).digest('hex');
    expect(r.headers['x-sentra-timestamp']).toBe('1700000000500');
    expect(r.headers['x-sentra-signature']).toBe(`sha256=${expected}`);
    expect(signature(secret, 1_700_000_000_500, r.body)).toBe(`sha256=${expected}`);
  });
  it('refuses an address that is not http(s), for good', () => {
    expect(() => webhookRequest({ allowPrivate: true, timeoutMs: 1000 }, m({ recipient: 'ftp://x.example/' }))).toThrow(
      DeliveryError,
    );
  });
});

describe('the email message', () => {
  it('goes from SMTP_FROM to the recipient with the subject and the text, a default subject when none', () => {
    const s = { url: 'smtp://127.0.0.1:2525', from: 'Sentra <alerts@example.com>', timeoutMs: 1000 };
    expect(emailMessage(s, m({ recipient: 'ops@example.com' }))).toMatchObject({
      from: 'Sentra <alerts@example.com>',
      to: 'ops@example.com',
      subject: 'Tangki hampir kosong',
      text: 'Level solar 9 % di Genset-01',
    });
    expect(emailMessage(s, m({ subject: null })).subject).toBe(DEFAULT_SUBJECT);
  });
});

describe('the webhook address guard (SSRF)', () => {
  it('takes public addresses and refuses loopback, private, link-local, CGNAT and reserved ones', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
      'not-an-ip',
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
  });
  it('refuses a URL naming a non-public IP literal', () => {
    expect(() => checkLiteralHost(new URL('http://127.0.0.1:8080/x'))).toThrow(/not public.*WEBHOOK_ALLOW_PRIVATE/);
    expect(() => checkLiteralHost(new URL('http://[::1]/x'))).toThrow(DeliveryError);
    expect(() => checkLiteralHost(new URL('https://hooks.example/x'))).not.toThrow();
  });
});

describe('provider answers', () => {
  it('accepts 2xx, retries 408/429/5xx and fails other answers for good, with the answer in the reason', () => {
    expect(() => checkAnswer('SMS provider', { status: 201, body: '' })).not.toThrow();
    const err = (status: number) => {
      try {
        checkAnswer('SMS provider', { status, body: '{"message":"The \'To\' number is not valid"}' });
      } catch (e) {
        return e as DeliveryError;
      }
      throw new Error('no error');
    };
    expect(err(400)).toMatchObject({
      permanent: true,
      message: `SMS provider answered HTTP 400: {"message":"The 'To' number is not valid"}`,
    });
    expect(err(401).permanent).toBe(true);
    expect(err(429).permanent).toBe(false);
    expect(err(503).permanent).toBe(false);
  });
});
