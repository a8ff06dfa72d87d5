// Notifications: the channels a task can send through (their descriptors, ../channels/), the address rule of each
// (the rule contracts, the outbox and the web's forms validate with these same schemas) and a delivery as task/get
// answers it under `notifications`.
import { z } from 'zod';
import { CHANNEL_CODES, CHANNELS, type ChannelCode } from '../channels/index.js';

/** the address rules (the channels' descriptors use them) */
export * from '../channels/addresses.js';

/** the channels' codes, in the descriptors' order (contracts/src/channels/index.ts) */
export const NOTIFICATION_CHANNELS = CHANNEL_CODES;
export type NotificationChannel = ChannelCode;
export const notificationChannel = z.enum(NOTIFICATION_CHANNELS);

/** queued → sending → sent | failed (after the last attempt); muted (task muted); not_configured (no transport set up) */
export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed', 'muted', 'not_configured'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const deliveryStatus = z.enum(DELIVERY_STATUSES);

const addressOf = new Map<string, z.ZodType<string>>(CHANNELS.map((c) => [c.code, c.address.schema]));
/** The address schema of a channel (its descriptor's): EMAIL an email address, SMS and WHATSAPP an E.164 number, WEBHOOK an http(s) URL. */
export function recipientSchema(channel: NotificationChannel): z.ZodType<string> {
  return addressOf.get(channel)!;
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

/** Whether the gateway can send through a channel, and which variables configure it (names only, never values). */
export const ChannelStatus = z.object({
  channel: notificationChannel,
  configured: z.boolean(),
  variables: z.array(z.string()),
});
export type ChannelStatus = z.infer<typeof ChannelStatus>;
