// WHATSAPP on the gateway: the WhatsApp Cloud API (WHATSAPP_API_URL, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_TOKEN).
import { defineServerChannel, textMessage } from '../define.js';
import { createWhatsappTransport } from './transport.js';

export const whatsapp = defineServerChannel<'WHATSAPP'>({
  transport: (c) =>
    createWhatsappTransport({
      apiUrl: c.WHATSAPP_API_URL,
      phoneNumberId: c.WHATSAPP_PHONE_NUMBER_ID,
      token: c.WHATSAPP_TOKEN,
      timeoutMs: c.NOTIFY_TIMEOUT_MS,
    }),
  message: textMessage,
});
