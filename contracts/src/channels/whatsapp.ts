// WHATSAPP: an E.164 number; WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TOKEN configure it (the WhatsApp Cloud API).
import { z } from 'zod';
import { T } from '../text/id.js';
import { isUrlOf, phoneNumber } from './addresses.js';
import { defineChannel } from './define.js';

export const whatsapp = defineChannel({
  code: 'WHATSAPP',
  label: 'WhatsApp',
  envName: 'WhatsApp',
  address: {
    field: 'phone',
    label: T.ruleScreens.phone,
    placeholder: '+6281234567890',
    schema: phoneNumber,
    example: '+6281234567890',
  },
  optional: [],
  defaultContent: true,
  settings: {
    /** WhatsApp Cloud API: POST {WHATSAPP_API_URL}/{WHATSAPP_PHONE_NUMBER_ID}/messages with a bearer token */
    WHATSAPP_API_URL: z
      .string()
      .default('https://graph.facebook.com/v21.0')
      .refine((v) => isUrlOf(v, ['http:', 'https:']), 'must be an http(s) URL'),
    WHATSAPP_PHONE_NUMBER_ID: z
      .string()
      .regex(/^[0-9]{1,32}$/, 'must be the numeric phone-number id')
      .optional(),
    WHATSAPP_TOKEN: z.string().optional(),
  },
  variables: ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_TOKEN'],
  secrets: ['WHATSAPP_TOKEN'],
});
