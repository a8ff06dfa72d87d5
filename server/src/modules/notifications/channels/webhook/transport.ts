// WEBHOOK: a POST of the notification as JSON to the recipient URL. Headers: X-Sentra-Delivery (the outbox id, the
// idempotency key: delivery is at-least-once), X-Sentra-Timestamp (ms) and, when WEBHOOK_SECRET is set,
// X-Sentra-Signature: sha256=<hex HMAC-SHA256 of `${timestamp}.${body}`> so the receiver can check origin and age.
import crypto from 'node:crypto';
import { post, checkAnswer, type ProviderRequest } from '../../transports/http.js';
import { DeliveryError, type OutgoingMessage, type Transport } from '../../transports/transport.js';
import { checkLiteralHost, publicOnlyLookup } from './address-guard.js';

export interface WebhookSettings {
  /** when set, every request is signed */
  secret?: string;
  allowPrivate: boolean;
  timeoutMs: number;
  now?: () => number;
}

/** The JSON body: the message and where it came from; a body that is itself a JSON object also travels parsed as `data`. */
export function webhookPayload(m: OutgoingMessage, sentAt: number): Record<string, unknown> {
  let data: unknown;
  try {
    const parsed: unknown = JSON.parse(m.body);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed;
  } catch {
    // plain text: only `text`
  }
  return {
    id: m.id,
    event: m.event,
    app_id: m.appId,
    task_id: m.taskId,
    rule_id: m.ruleId,
    subject: m.subject,
    text: m.body,
    ...(data === undefined ? {} : { data }),
    created_at: m.createdAt,
    sent_at: sentAt,
  };
}

export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function webhookRequest(s: WebhookSettings, m: OutgoingMessage): ProviderRequest {
  let url: URL;
  try {
    url = new URL(m.recipient);
  } catch {
    throw new DeliveryError('webhook address is not a URL', { permanent: true });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DeliveryError('webhook address must be http(s)', { permanent: true });
  const timestamp = (s.now ?? Date.now)();
  const body = JSON.stringify(webhookPayload(m, timestamp));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Sentra-Notifications/1',
    'x-sentra-delivery': String(m.id),
    'x-sentra-timestamp': String(timestamp),
  };
  if (s.secret) headers['x-sentra-signature'] = signature(s.secret, timestamp, body);
  return { url, headers, body };
}

export function createWebhookTransport(s: WebhookSettings): Transport {
  return {
    channel: 'WEBHOOK',
    async send(m, signal) {
      const req = webhookRequest(s, m);
      if (!s.allowPrivate) checkLiteralHost(req.url);
      const answer = await post(req.url, {
        ...req,
        timeoutMs: s.timeoutMs,
        signal,
        lookup: s.allowPrivate ? undefined : publicOnlyLookup,
      });
      checkAnswer('webhook', answer);
    },
  };
}
