// EMAIL through nodemailer over SMTP (SMTP_URL, SMTP_FROM): a small connection pool, time-outs on connect, greeting
// and socket, plain text. An SMTP 5xx answer (mailbox unknown, relay refused) is permanent; connection trouble and
// 4xx (greylisting, busy) are retried by the worker.
import nodemailer from 'nodemailer';
import { DeliveryError, reasonOf, type OutgoingMessage, type Transport } from '../../transports/transport.js';

export interface EmailSettings {
  url: string;
  from: string;
  timeoutMs: number;
}

/** The subject when a task's action gave none. */
export const DEFAULT_SUBJECT = 'Notifikasi Sentra';

export function emailMessage(s: EmailSettings, m: OutgoingMessage) {
  return {
    from: s.from,
    to: m.recipient,
    subject: m.subject?.trim() || DEFAULT_SUBJECT,
    text: m.body,
    headers: { 'X-Sentra-Delivery': String(m.id) },
  };
}

export function createEmailTransport(s: EmailSettings): Transport {
  const mailer = nodemailer.createTransport({
    url: s.url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: s.timeoutMs,
    greetingTimeout: s.timeoutMs,
    socketTimeout: s.timeoutMs,
  });
  return {
    channel: 'EMAIL',
    async send(m, signal) {
      if (signal.aborted) throw new DeliveryError('aborted: the gateway is shutting down');
      // nodemailer takes no abort signal: the pool's socket time-outs bound the wait, and close() ends its connections
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const stopped = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DeliveryError(`no answer from the SMTP server within ${s.timeoutMs * 2} ms`)),
          s.timeoutMs * 2,
        );
        onAbort = () => reject(new DeliveryError('aborted: the gateway is shutting down'));
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await Promise.race([mailer.sendMail(emailMessage(s, m)), stopped]);
      } catch (err) {
        if (err instanceof DeliveryError) throw err;
        const code = (err as { responseCode?: number }).responseCode;
        throw new DeliveryError(reasonOf(err), { permanent: code !== undefined && code >= 500 && code < 600 });
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort!);
      }
    },
    close() {
      mailer.close();
    },
  };
}
