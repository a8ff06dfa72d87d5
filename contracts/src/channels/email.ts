// EMAIL: an address and a subject; SMTP_URL and SMTP_FROM configure it (the transport: nodemailer over SMTP).
import { z } from 'zod';
import { T } from '../text/id.js';
import { emailAddress, isUrlOf } from './addresses.js';
import { defineChannel } from './define.js';

export const email = defineChannel({
  code: 'EMAIL',
  label: 'Email',
  envName: 'email',
  address: {
    field: 'email',
    label: T.ruleScreens.email,
    inputType: 'email',
    schema: emailAddress,
    example: 'ops@contoh.id',
  },
  optional: [{ field: 'subject', label: T.ruleScreens.subject, placeholder: T.rules.defaultSubject }],
  defaultContent: true,
  settings: {
    /** smtp://user:pass@host:port (STARTTLS when offered) or smtps://… (TLS from the start) */
    SMTP_URL: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || isUrlOf(v, ['smtp:', 'smtps:']),
        'must be smtp://[user:pass@]host[:port] or smtps://…',
      ),
    /** the sender: `alerts@example.com` or `Sentra <alerts@example.com>` */
    SMTP_FROM: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || /^([^<>]*<)?[^\s@<>]+@[^\s@<>]+\.?[^\s@<>]*>?$/.test(v.trim()),
        'must be an address, e.g. Sentra <alerts@example.com>',
      ),
  },
  variables: ['SMTP_URL', 'SMTP_FROM'],
  secrets: ['SMTP_URL'],
});
