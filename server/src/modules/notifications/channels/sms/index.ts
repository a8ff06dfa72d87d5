// SMS on the gateway: a Twilio-style messages API (SMS_API_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM).
import { defineServerChannel, textMessage } from '../define.js';
import { createSmsTransport } from './transport.js';

export const sms = defineServerChannel<'SMS'>({
  transport: (c) =>
    createSmsTransport({
      apiUrl: c.SMS_API_URL,
      accountSid: c.SMS_ACCOUNT_SID,
      authToken: c.SMS_AUTH_TOKEN,
      from: c.SMS_FROM,
      timeoutMs: c.NOTIFY_TIMEOUT_MS,
    }),
  message: textMessage,
});
