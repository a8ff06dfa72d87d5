// SMS through a Twilio-style messages API: a form POST to {base}/2010-04-01/Accounts/{sid}/Messages.json with HTTP
// basic auth (account sid : auth token) and the fields From, To, Body (Twilio answers 201 with the message resource).
import { post, checkAnswer, type ProviderRequest } from '../../transports/http.js';
import { clipText, type OutgoingMessage, type Transport } from '../../transports/transport.js';

export interface SmsSettings {
  apiUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  timeoutMs: number;
}

/** Twilio's limit for one message body. */
export const SMS_BODY_MAX = 1600;

export function smsRequest(s: SmsSettings, m: OutgoingMessage): ProviderRequest {
  const url = new URL(
    `${s.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(s.accountSid)}/Messages.json`,
  );
  const text = m.subject ? `${m.subject}\n${m.body}` : m.body;
  return {
    url,
    headers: {
      authorization: `Basic ${Buffer.from(`${s.accountSid}:${s.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({ To: m.recipient, From: s.from, Body: clipText(text, SMS_BODY_MAX) }).toString(),
  };
}

export function createSmsTransport(s: SmsSettings): Transport {
  return {
    channel: 'SMS',
    async send(m, signal) {
      const req = smsRequest(s, m);
      checkAnswer('SMS provider', await post(req.url, { ...req, timeoutMs: s.timeoutMs, signal }));
    },
  };
}
