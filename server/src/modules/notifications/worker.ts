// The notification worker: delivers the outbox. It claims due messages in small batches (atomically, so gateways
// sharing one database never send a message twice), sends each through its channel's transport with a time-out,
// and records sent / failed with the reason, or queues the message again after a backoff. Per-tenant rate limit:
// a message over the limit waits for the next window. Nothing here can block or throw into ingest or the rules
// engine: the database work is a few indexed statements per batch, provider calls are asynchronous and bounded.
// Delivery is at-least-once: a message being sent when the gateway stops (or dies) is sent again later
// (docs/decisions/notifications.md).
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { CHANNEL_VARIABLES, DELIVERY_STATUSES, type DeliveryStatus, type NotificationChannel } from '@sentra/contracts';
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/log.js';
import type { ClaimedMessage, Outbox, Outcome } from './outbox.js';
import { retryDelay } from './backoff.js';
import { createTransports, type Transports } from './channels/index.js';
import { DeliveryError, reasonOf, type OutgoingMessage } from './transports/transport.js';

export interface NotificationMetrics {
  /** messages in the outbox per status */
  outbox: Record<DeliveryStatus, number>;
  /** since start, in this gateway */
  sent: number;
  failed_attempts: number;
  rate_limited: number;
  in_flight: number;
  /** channels with a transport in this gateway */
  channels: NotificationChannel[];
}

export interface NotificationWorker {
  /** the channels this gateway can send through (a transport configured); the others' messages are 'not_configured' */
  readonly channels: readonly NotificationChannel[];
  start(): void;
  /** look for due messages now (the outbox calls it after an enqueue) */
  kick(): void;
  /** stops claiming, aborts what is in flight (those go back to 'queued'), closes the transports; idempotent */
  close(): Promise<void>;
  metrics(): Promise<NotificationMetrics>;
  /** one claim round and the sends it started (tests) */
  runOnce(): Promise<void>;
}

export interface WorkerDeps {
  config: Config;
  log: Logger;
  now?: () => number;
  /** the outbox it delivers, whose enqueues wake the worker */
  outbox: Outbox;
  /** the channels' transports (default: from config) */
  transports?: Transports;
  random?: () => number;
  /** messages claimed per round (default 10) and sends at once (default 32) */
  batchSize?: number;
  maxInFlight?: number;
  /** the longest sleep between two looks at the outbox (other gateways' messages, expired leases); default 5 s */
  pollMs?: number;
}

export function createNotificationWorker(deps: WorkerDeps): NotificationWorker {
  const { outbox, config, log } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const transports = deps.transports ?? createTransports(config);
  const channels = Object.keys(transports) as NotificationChannel[];
  const batchSize = deps.batchSize ?? 10;
  const maxInFlight = deps.maxInFlight ?? 32;
  const pollMs = deps.pollMs ?? 5_000;
  const maxAttempts = config.NOTIFY_MAX_ATTEMPTS;
  // a claimed message is 'sending' until its lease ends; a gateway that died mid-send leaves it for another to reclaim
  const leaseMs = Math.max(60_000, config.NOTIFY_TIMEOUT_MS * 3);
  const limiter = new RateLimiterMemory({ points: config.NOTIFY_RATE_PER_MINUTE, duration: 60, keyPrefix: 'notify' });
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const counters = { sent: 0, failed_attempts: 0, rate_limited: 0 };
  let started = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let soon = false;
  let round: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;

  /** rows of channels without a transport become visible as such instead of waiting forever */
  const markNotConfigured = () => outbox.markNotConfigured(channels, now());

  /** due queued rows, and 'sending' rows whose lease ended, become 'sending' under a new lease, in one statement */
  function claim(limit: number): Promise<ClaimedMessage[]> {
    const at = now();
    return outbox.claim(channels, at, at + leaseMs, limit);
  }

  // only while it is still ours: a task removed meanwhile has no row left to update
  const record = (id: number, outcome: Outcome) => outbox.record(id, outcome);

  /** one attempt for the task's timeline (the outbox row keeps only the latest); never in the way of delivery */
  async function attempted(row: ClaimedMessage, outcome: 'sent' | 'retry' | 'failed', error: string | null = null) {
    try {
      await outbox.attempted({ outboxId: row.id, taskId: row.taskId, ts: now(), outcome, error });
    } catch (err) {
      log.warn('notification attempt not recorded', err);
    }
  }

  async function deliver(row: ClaimedMessage): Promise<void> {
    const transport = transports[row.channel as NotificationChannel]!;
    try {
      await limiter.consume(String(row.tenantId));
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      counters.rate_limited++;
      // over the tenant's limit: back in the queue for the next window, no attempt spent
      await record(row.id, { status: 'queued', nextAttemptAt: now() + Math.max(1, err.msBeforeNext) });
      return;
    }
    const message: OutgoingMessage = {
      id: row.id,
      appId: row.appId,
      taskId: row.taskId,
      ruleId: row.ruleId,
      event: row.event,
      recipient: row.recipient,
      subject: row.subject,
      body: row.body,
      createdAt: row.createdAt,
    };
    try {
      await transport.send(message, stopping.signal);
      counters.sent++;
      if (await record(row.id, { status: 'sent', sentAt: now() })) await attempted(row, 'sent');
    } catch (err) {
      if (stopping.signal.aborted) {
        // shutdown mid-send: it may or may not have left; it goes again after the restart (at-least-once)
        await record(row.id, { status: 'queued', nextAttemptAt: now() });
        return;
      }
      counters.failed_attempts++;
      const reason = reasonOf(err);
      const attempts = row.attempts + 1;
      const final = (err instanceof DeliveryError && err.permanent) || attempts >= maxAttempts;
      const kept = await record(
        row.id,
        final
          ? { status: 'failed', attempts, lastError: reason }
          : {
              status: 'queued',
              attempts,
              lastError: reason,
              nextAttemptAt: now() + retryDelay(attempts, config.NOTIFY_RETRY_BASE_MS, random),
            },
      );
      if (kept) await attempted(row, final ? 'failed' : 'retry', reason);
      log.debug(`notification ${row.id} (${row.channel}) attempt ${attempts} failed: ${reason}`);
    }
  }

  function track(p: Promise<void>) {
    const tracked = p
      .catch((err) => log.warn('notification delivery failed unexpectedly', err))
      .finally(() => {
        inFlight.delete(tracked);
        schedule(0);
      });
    inFlight.add(tracked);
  }

  async function nextDueIn(): Promise<number> {
    const due = await outbox.nextDue();
    return due == null ? pollMs : Math.min(pollMs, Math.max(0, due - now()));
  }

  async function runRound(): Promise<void> {
    let claimed: ClaimedMessage[] = [];
    let failed = false;
    try {
      // a read (never waits in WAL mode): the write lock is only taken when there is something to claim or mark
      if (await outbox.anythingDue(now())) {
        await markNotConfigured();
        claimed = await claim(Math.min(batchSize, maxInFlight - inFlight.size));
      }
    } catch (err) {
      // SQLITE_BUSY with another gateway, or the database closing: try again on the next look
      failed = true;
      log.warn('notification outbox: claim failed', err);
    }
    for (const row of claimed) track(deliver(row));
    if (closed || inFlight.size >= maxInFlight) return; // a finishing send schedules the next round
    if (failed) return schedule(pollMs);
    if (claimed.length === batchSize) return schedule(0);
    let wait = pollMs;
    try {
      wait = await nextDueIn();
    } catch {
      // as above
    }
    // a round that found nothing never leads straight into another (no busy loop, whatever the rows look like)
    schedule(claimed.length === 0 ? Math.max(wait, 50) : wait);
  }

  function schedule(ms: number) {
    if (closed || !started) return;
    if (ms <= 0) {
      if (soon) return;
      soon = true;
      clearTimeout(timer);
      setImmediate(() => {
        soon = false;
        void tick();
      });
      return;
    }
    if (soon) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), ms);
    timer.unref();
  }

  async function tick(): Promise<void> {
    if (closed) return;
    if (round) return; // the running round schedules the next
    round = runRound().finally(() => (round = undefined));
    await round;
  }

  return {
    channels,
    start() {
      if (started || closed) return;
      started = true;
      unsubscribe = outbox.onEnqueued(() => schedule(0));
      // the channels without variables (WEBHOOK) are always there: named apart from the providers configured
      const always = channels.filter((c) => CHANNEL_VARIABLES[c].length === 0);
      const configured = channels.filter((c) => !always.includes(c));
      log.info(
        `notifications: ${configured.length ? configured.join(', ') : 'no provider'} configured (+ ${always.join(', ')}); others stay 'not_configured'`,
      );
      schedule(0);
    },
    kick() {
      schedule(0);
    },
    async runOnce() {
      await (round ?? (round = runRound().finally(() => (round = undefined))));
      await Promise.all([...inFlight]);
    },
    async close() {
      if (closed) return;
      closed = true;
      unsubscribe?.();
      clearTimeout(timer);
      await round?.catch(() => undefined);
      stopping.abort();
      await Promise.all([...inFlight]);
      for (const t of Object.values(transports)) t.close?.();
    },
    async metrics() {
      const byStatus = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>;
      try {
        for (const r of await outbox.countByStatus()) byStatus[r.status] = r.n;
      } catch {
        // database closed: the counters still answer
      }
      return { outbox: byStatus, ...counters, in_flight: inFlight.size, channels };
    },
  };
}
