// WHATSAPP: an E.164 number; WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TOKEN configure it (the WhatsApp Cloud API).
import { z } from 'zod';
import { apiUrlSetting, phoneAddress } from './addresses.js';
import { defineChannel } from './define.js';

export const whatsapp = defineChannel({
  code: 'WHATSAPP',
  label: 'WhatsApp',
  envName: 'WhatsApp',
  address: phoneAddress,
  optional: [],
  defaultContent: true,
  settings: {
    /** WhatsApp Cloud API: POST {WHATSAPP_API_URL}/{WHATSAPP_PHONE_NUMBER_ID}/messages with a bearer token */
    WHATSAPP_API_URL: apiUrlSetting('https://graph.facebook.com/v21.0'),
    WHATSAPP_PHONE_NUMBER_ID: z
      .string()
      .regex(/^[0-9]{1,32}$/, 'must be the numeric phone-number id')
      .optional(),
    WHATSAPP_TOKEN: z.string().optional(),
  },
  variables: ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_TOKEN'],
  secrets: ['WHATSAPP_TOKEN'],
});
