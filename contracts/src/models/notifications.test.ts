import { describe, expect, it } from 'vitest';
import { T } from '../text/id.js';
import { Delivery, isValidRecipient, phoneNumber, recipientSchema, webhookUrl } from './notifications.js';

const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('notification address rules', () => {
  it('takes an email address for EMAIL', () => {
    expect(isValidRecipient('EMAIL', 'ops@contoh.id')).toBe(true);
    expect(message(recipientSchema('EMAIL').safeParse('ops@'))).toBe(T.common.invalidEmail);
  });
  it('takes an E.164 number for SMS and WHATSAPP, with the message saying the form', () => {
    for (const ok of ['+6281234567890', '+15005550006', '+442071838750'])
      expect(isValidRecipient('SMS', ok), ok).toBe(true);
    for (const bad of ['081234567890', '+0812345678', '+62 812 3456 7890', '+62812', '+6281234567890123456', ''])
      expect(isValidRecipient('WHATSAPP', bad), bad).toBe(false);
    expect(message(phoneNumber.safeParse('0812345678'))).toBe(T.notifications.invalidPhone);
    expect(message(phoneNumber.safeParse(''))).toBe(T.common.required);
  });
  it('takes an absolute http(s) URL without credentials for WEBHOOK', () => {
    expect(isValidRecipient('WEBHOOK', 'https://hooks.contoh.id/sentra?x=1')).toBe(true);
    expect(isValidRecipient('WEBHOOK', 'http://10.0.0.5:8080/in')).toBe(true);
    for (const bad of ['ftp://x.id/', 'javascript:alert(1)', 'https://user:pw@x.id/', '/relative', 'https://'])
      expect(isValidRecipient('WEBHOOK', bad), bad).toBe(false);
    expect(message(webhookUrl.safeParse('file:///etc/passwd'))).toBe(T.notifications.invalidUrl);
  });
  it('describes a delivery as task/get answers it', () => {
    const d = {
      id: 1,
      channel: 'SMS',
      recipient: '+6281234567890',
      subject: null,
      event: 'new',
      status: 'failed',
      attempts: 6,
      last_error: 'ECONNREFUSED',
      created_at: 1,
      sent_at: null,
    };
    expect(Delivery.parse(d)).toEqual(d);
    expect(Delivery.safeParse({ ...d, status: 'lost' }).success).toBe(false);
  });
});
