// SMS: an E.164 number; SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM configure it (a Twilio-style messages API).
import { z } from 'zod';
import { apiUrlSetting, phoneAddress } from './addresses.js';
import { defineChannel } from './define.js';

export const sms = defineChannel({
  code: 'SMS',
  label: 'SMS',
  envName: 'SMS',
  address: phoneAddress,
  optional: [],
  defaultContent: true,
  settings: {
    /** Twilio-style messages API: POST {SMS_API_URL}/2010-04-01/Accounts/{sid}/Messages.json */
    SMS_API_URL: apiUrlSetting('https://api.twilio.com'),
    SMS_ACCOUNT_SID: z.string().optional(),
    SMS_AUTH_TOKEN: z.string().optional(),
    /** the sender number (E.164) or alphanumeric sender id */
    SMS_FROM: z.string().optional(),
  },
  variables: ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'],
  secrets: ['SMS_AUTH_TOKEN'],
});
