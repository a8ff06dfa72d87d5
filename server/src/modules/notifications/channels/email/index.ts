// EMAIL on the gateway: nodemailer over SMTP_URL from SMTP_FROM; the subject and content default when blank.
import { T } from '@sentra/contracts';
import { defineServerChannel, filled } from '../define.js';
import { createEmailTransport } from './transport.js';

export const email = defineServerChannel<'EMAIL'>({
  transport: (c) => createEmailTransport({ url: c.SMTP_URL, from: c.SMTP_FROM, timeoutMs: c.NOTIFY_TIMEOUT_MS }),
  message: (task, values) => ({
    subject: filled(task.subject, T.rules.defaultSubject, values),
    body: filled(task.content, T.rules.defaultContent, values),
  }),
});
