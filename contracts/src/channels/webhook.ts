// WEBHOOK (beyond the spec): an http(s) URL; needs no provider account, so it is always configured. The content is
// optional and has no default: the body is the event as JSON.
import { z } from 'zod';
import { T } from '../text/id.js';
import { webhookUrl } from './addresses.js';
import { defineChannel, onOff } from './define.js';

export const webhook = defineChannel({
  code: 'WEBHOOK',
  label: 'Webhook',
  envName: 'webhook',
  address: {
    field: 'url',
    label: T.ruleScreens.url,
    placeholder: 'https://',
    schema: webhookUrl,
    example: 'https://hooks.contoh.id/sentra',
  },
  optional: [],
  defaultContent: false,
  settings: {
    /** when set, webhook requests carry X-Sentra-Signature: sha256=HMAC(secret, timestamp.body) */
    WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    /** webhooks to loopback, private, link-local and other non-public addresses: off (refused) unless turned on */
    WEBHOOK_ALLOW_PRIVATE: onOff.default('off'),
  },
  variables: [],
  secrets: ['WEBHOOK_SECRET'],
});
