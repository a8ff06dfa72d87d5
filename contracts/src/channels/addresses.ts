// The address rules of the channels (the rule contracts, the outbox and the web's forms validate with these same
// schemas). A channel's descriptor names its own; these are the ones the channels share.
import { z } from 'zod';
import { T } from '../text/id.js';
import { email } from '../models/fields.js';

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

/** The address field of a channel that sends to a phone (SMS, WhatsApp): `phone`, an E.164 number. */
export const phoneAddress = {
  field: 'phone',
  label: T.ruleScreens.phone,
  placeholder: '+6281234567890',
  schema: phoneNumber,
  example: '+6281234567890',
} as const;

/** A provider's API address among a channel's settings: an http(s) URL, `fallback` when unset. */
export const apiUrlSetting = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => isUrlOf(v, ['http:', 'https:']), 'must be an http(s) URL');

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

/** Whether `value` is a URL of one of `protocols` with a host (the gateway's environment checks). */
export function isUrlOf(value: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}
