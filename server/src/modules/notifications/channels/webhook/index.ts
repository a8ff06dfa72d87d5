// WEBHOOK on the gateway: always there (no provider account); the body is the event as JSON, the values every
// template sees plus the rendered content (null without one).
import { renderTemplate } from '@sentra/contracts';
import { defineServerChannel } from '../define.js';
import { createWebhookTransport } from './transport.js';

export const webhook = defineServerChannel<'WEBHOOK'>({
  transport: (c) =>
    createWebhookTransport({
      secret: c.WEBHOOK_SECRET,
      allowPrivate: c.WEBHOOK_ALLOW_PRIVATE === 'on',
      timeoutMs: c.NOTIFY_TIMEOUT_MS,
    }),
  message: (task, values) => ({
    body: JSON.stringify({ ...values, text: task.content ? renderTemplate(task.content, values) : null }),
  }),
});
