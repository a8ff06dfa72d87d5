// Notifications: the channels a task can send through, the address rules of each (the rule contracts and the web's
// forms validate with these same schemas) and a delivery as task/get answers it under `notifications`.
import { z } from 'zod';
import { T } from '../text/id.js';
import { email } from './fields.js';

export const NOTIFICATION_CHANNELS = ['EMAIL', 'SMS', 'WHATSAPP', 'WEBHOOK'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const notificationChannel = z.enum(NOTIFICATION_CHANNELS);

/** queued → sending → sent | failed (after the last attempt); muted (task muted); not_configured (no transport set up) */
export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed', 'muted', 'not_configured'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const deliveryStatus = z.enum(DELIVERY_STATUSES);

/** E.164: '+', country code (no leading 0), at most 15 digits in all (ITU-T E.164); at least 8 so a typo is caught. */
export const E164_PATTERN = /^\+[1-9][0-9]{7,14}$/;
export const WEBHOOK_URL_MAX = 2048;

/** An email address (the same rule as everywhere else in the console). */
export const emailAddress = email;

/** A phone number for SMS and WhatsApp, in E.164 form (`+6281234567890`). */
export const phoneNumber = z
  .string({ error: T.common.required })
  .min(1, T.common.required)
  .regex(E164_PATTERN, T.notifications.invalidPhone);

/** A webhook address: an absolute http:// or https:// URL without credentials. Which hosts it may reach is the server's decision. */
export const webhookUrl = z
  .string({ error: T.common.required })
  .min(1, T.common.required)
  .max(WEBHOOK_URL_MAX, T.common.max(WEBHOOK_URL_MAX))
  .refine(isHttpUrl, T.notifications.invalidUrl);

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.hostname !== ''
    );
  } catch {
    return false;
  }
}

/** The address schema of a channel: EMAIL an email address, SMS and WHATSAPP an E.164 number, WEBHOOK an http(s) URL. */
export function recipientSchema(channel: NotificationChannel) {
  switch (channel) {
    case 'EMAIL':
      return emailAddress;
    case 'SMS':
    case 'WHATSAPP':
      return phoneNumber;
    case 'WEBHOOK':
      return webhookUrl;
  }
}

/** Whether `recipient` is a valid address for `channel`. */
export function isValidRecipient(channel: NotificationChannel, recipient: string): boolean {
  return recipientSchema(channel).safeParse(recipient).success;
}

/** One message of a task as the console shows it: where it went, its status, attempts and the last failure's reason. */
export const Delivery = z.object({
  id: z.number().int(),
  channel: notificationChannel,
  recipient: z.string(),
  subject: z.string().nullable(),
  event: z.string().nullable(),
  status: deliveryStatus,
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: z.number().int(),
  sent_at: z.number().int().nullable(),
});
export type Delivery = z.infer<typeof Delivery>;

/**
 * The gateway's environment variables that configure each channel (all of them, or the channel stays unconfigured and
 * its messages 'not_configured'); SMS_API_URL and WHATSAPP_API_URL have defaults. WEBHOOK needs none.
 */
export const CHANNEL_VARIABLES: Record<NotificationChannel, readonly string[]> = {
  EMAIL: ['SMTP_URL', 'SMTP_FROM'],
  SMS: ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'],
  WHATSAPP: ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_TOKEN'],
  WEBHOOK: [],
};

/** Whether the gateway can send through a channel, and which variables configure it (names only, never values). */
export const ChannelStatus = z.object({
  channel: notificationChannel,
  configured: z.boolean(),
  variables: z.array(z.string()),
});
export type ChannelStatus = z.infer<typeof ChannelStatus>;
