// The transports of the channels this gateway has configured (config.ts checks that each is complete or absent).
// WEBHOOK needs no provider account, so it is always there; a channel missing here keeps its messages 'not_configured'.
import type { NotificationChannel } from '@sentra/contracts';
import type { Config } from '../../../platform/config.js';
import { createEmailTransport } from './email.js';
import { createSmsTransport } from './sms.js';
import { createWhatsappTransport } from './whatsapp.js';
import { createWebhookTransport } from './webhook.js';
import type { Transport } from './transport.js';

export type Transports = Partial<Record<NotificationChannel, Transport>>;

export function createTransports(config: Config): Transports {
  const timeoutMs = config.NOTIFY_TIMEOUT_MS;
  const t: Transports = {};
  if (config.SMTP_URL && config.SMTP_FROM)
    t.EMAIL = createEmailTransport({ url: config.SMTP_URL, from: config.SMTP_FROM, timeoutMs });
  if (config.SMS_ACCOUNT_SID && config.SMS_AUTH_TOKEN && config.SMS_FROM) {
    t.SMS = createSmsTransport({
      apiUrl: config.SMS_API_URL,
      accountSid: config.SMS_ACCOUNT_SID,
      authToken: config.SMS_AUTH_TOKEN,
      from: config.SMS_FROM,
      timeoutMs,
    });
  }
  if (config.WHATSAPP_PHONE_NUMBER_ID && config.WHATSAPP_TOKEN) {
    t.WHATSAPP = createWhatsappTransport({
      apiUrl: config.WHATSAPP_API_URL,
      phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
      token: config.WHATSAPP_TOKEN,
      timeoutMs,
    });
  }
  t.WEBHOOK = createWebhookTransport({
    secret: config.WEBHOOK_SECRET,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE === 'on',
    timeoutMs,
  });
  return t;
}
