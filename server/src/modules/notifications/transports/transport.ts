// One interface for every channel: the worker hands a claimed message to its channel's transport and records the
// outcome. A transport throws DeliveryError with a short reason; `permanent` says a retry cannot help (bad address,
// refused by the provider) so the message fails at once instead of after every backoff step.
import type { NotificationChannel } from '@sentra/contracts';

export interface OutgoingMessage {
  /** the outbox row id: the idempotency key a receiver can deduplicate on (delivery is at-least-once) */
  id: number;
  appId: number;
  taskId: number | null;
  ruleId: number | null;
  event: string | null;
  recipient: string;
  subject: string | null;
  body: string;
  createdAt: number;
}

export interface Transport {
  readonly channel: NotificationChannel;
  /** resolves when the provider accepted the message; `signal` aborts it (shutdown) */
  send(message: OutgoingMessage, signal: AbortSignal): Promise<void>;
  close?(): void;
}

export class DeliveryError extends Error {
  readonly permanent: boolean;
  constructor(reason: string, opts: { permanent?: boolean } = {}) {
    super(reason);
    this.name = 'DeliveryError';
    this.permanent = opts.permanent ?? false;
  }
}

/** The reason stored for the console: one line, bounded, whatever was thrown. */
export function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const message = typeof e?.message === 'string' && e.message ? e.message : String(err);
  const code = typeof e?.code === 'string' && !message.includes(e.code) ? `${e.code}: ` : '';
  return clipLine(`${code}${message}`, 500);
}

export function clipLine(s: string, max: number): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** Texts beyond a channel's limit are cut with an ellipsis (Twilio: 1,600 characters; WhatsApp text: 4,096). */
export function clipText(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
