// WhatsApp through the WhatsApp Cloud API: POST {base}/{phone-number-id}/messages with a bearer token and a text
// message. The Cloud API takes the recipient's number with its country code and without '+'. Free text reaches a user
// only within 24 hours of their last message to the business number; outside it Meta refuses it (a permanent
// failure recorded with Meta's reason) and a template message would be needed (docs/decisions/notifications.md).
import { post, checkAnswer, type ProviderRequest } from '../../transports/http.js';
import { clipText, type OutgoingMessage, type Transport } from '../../transports/transport.js';

export interface WhatsappSettings {
  apiUrl: string;
  phoneNumberId: string;
  token: string;
  timeoutMs: number;
}

/** The Cloud API's limit for a text message body. */
export const WHATSAPP_BODY_MAX = 4096;

export function whatsappRequest(s: WhatsappSettings, m: OutgoingMessage): ProviderRequest {
  const text = m.subject ? `*${m.subject}*\n${m.body}` : m.body;
  return {
    url: new URL(`${s.apiUrl.replace(/\/+$/, '')}/${encodeURIComponent(s.phoneNumberId)}/messages`),
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: m.recipient.replace(/^\+/, ''),
      type: 'text',
      text: { preview_url: false, body: clipText(text, WHATSAPP_BODY_MAX) },
    }),
  };
}

export function createWhatsappTransport(s: WhatsappSettings): Transport {
  return {
    channel: 'WHATSAPP',
    async send(m, signal) {
      const req = whatsappRequest(s, m);
      checkAnswer('WhatsApp Cloud API', await post(req.url, { ...req, timeoutMs: s.timeoutMs, signal }));
    },
  };
}
