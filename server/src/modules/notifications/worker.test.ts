import { afterEach, describe, expect, it } from 'vitest';
import { findUp, openDb } from '../../platform/db/sqlite.js';
import { sqliteStore } from '../../platform/db/store.js';
import { loadConfig } from '../../platform/config.js';
import { createLogger } from '../../platform/log.js';
import { until } from '../../platform/testing/until.js';
import * as schema from '../../schema.js';
import { createOutbox, type OutboxMessage } from './outbox.js';
import { createNotificationWorker, type WorkerDeps } from './worker.js';
import { DeliveryError, type OutgoingMessage, type Transport } from './transports/transport.js';
import type { Transports } from './channels/index.js';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A transport that records what it was given and answers as the test says. */
function fakeTransport(
  channel: Transport['channel'],
  behave: (m: OutgoingMessage, signal: AbortSignal) => Promise<void> = async () => undefined,
) {
  const sent: OutgoingMessage[] = [];
  const transport: Transport = {
    channel,
    async send(m, signal) {
      sent.push(m);
      await behave(m, signal);
    },
  };
  return { transport, sent };
}

function setup(opts: {
  transports: Transports;
  env?: Record<string, string>;
  dataDir?: string;
  deps?: Partial<WorkerDeps>;
}) {
  const handle = openDb({
    dataDir: opts.dataDir ?? ':memory:',
    schema,
    migrationsFolder: findUp('drizzle', import.meta.url),
  });
  closers.push(() => handle.close());
  const clock = { t: 1_000_000 };
  const now = () => clock.t;
  const config = loadConfig({ NOTIFY_RETRY_BASE_MS: '1000', NOTIFY_MAX_ATTEMPTS: '3', ...opts.env });
  const store = sqliteStore(handle.sqlite, schema);
  const outbox = createOutbox(store, { now });
  const worker = createNotificationWorker({
    config,
    log: createLogger('silent'),
    now,
    outbox,
    transports: opts.transports,
    random: () => 0.5,
    ...opts.deps,
  });
  closers.push(() => worker.close());
  return { handle, store, outbox, worker, clock, list: () => outbox.listForTask(10, 5) };
}

const msg = (over: Partial<OutboxMessage> = {}): OutboxMessage => ({
  tenantId: 1,
  appId: 10,
  taskId: 5,
  event: 'new',
  channel: 'EMAIL',
  recipient: 'ops@example.com',
  subject: 'Tangki hampir kosong',
  body: 'Level 9 %',
  ...over,
});

describe('the notification worker', () => {
  it('sends a due message through its channel and marks it sent', async () => {
    const email = fakeTransport('EMAIL');
    const { outbox, worker, list } = setup({ transports: { EMAIL: email.transport } });
    await outbox.enqueue([msg()]);
    await worker.runOnce();
    expect(email.sent).toMatchObject([
      { recipient: 'ops@example.com', subject: 'Tangki hampir kosong', body: 'Level 9 %', event: 'new', taskId: 5 },
    ]);
    expect(await list()).toMatchObject([{ status: 'sent', attempts: 1, sent_at: 1_000_000, last_error: null }]);
    expect(await worker.metrics()).toMatchObject({ outbox: { sent: 1, queued: 0 }, sent: 1 });
  });

  it('retries a failed message with exponential backoff and fails it with the reason after the last attempt', async () => {
    const sms = fakeTransport('SMS', async () => {
      throw new DeliveryError('SMS provider answered HTTP 503: down');
    });
    const { outbox, worker, clock, list } = setup({ transports: { SMS: sms.transport } });
    await outbox.enqueue([msg({ channel: 'SMS', recipient: '+6281234567890' })]);
    await worker.runOnce();
    expect(await list()).toMatchObject([
      { status: 'queued', attempts: 1, last_error: 'SMS provider answered HTTP 503: down' },
    ]);
    // not due yet: base 1000 ms, jitter 0.5 → 750 ms
    clock.t += 700;
    await worker.runOnce();
    expect(sms.sent).toHaveLength(1);
    clock.t += 50;
    await worker.runOnce();
    expect(sms.sent).toHaveLength(2);
    expect(await list()).toMatchObject([{ status: 'queued', attempts: 2 }]);
    // second step doubles: 1500 ms
    clock.t += 1400;
    await worker.runOnce();
    expect(sms.sent).toHaveLength(2);
    clock.t += 100;
    await worker.runOnce();
    expect(await list()).toMatchObject([
      { status: 'failed', attempts: 3, last_error: 'SMS provider answered HTTP 503: down', sent_at: null },
    ]);
    clock.t += 3_600_000;
    await worker.runOnce();
    expect(sms.sent).toHaveLength(3);
  });

  it('fails a message at once when the provider refuses it for good', async () => {
    const wa = fakeTransport('WHATSAPP', async () => {
      throw new DeliveryError('WhatsApp Cloud API answered HTTP 400: invalid recipient', { permanent: true });
    });
    const { outbox, worker, list } = setup({ transports: { WHATSAPP: wa.transport } });
    await outbox.enqueue([msg({ channel: 'WHATSAPP', recipient: '+6281234567890' })]);
    await worker.runOnce();
    expect(await list()).toMatchObject([
      { status: 'failed', attempts: 1, last_error: 'WhatsApp Cloud API answered HTTP 400: invalid recipient' },
    ]);
  });

  it('never sends muted messages, queued or muted later', async () => {
    const email = fakeTransport('EMAIL');
    const { outbox, worker, list } = setup({ transports: { EMAIL: email.transport } });
    await outbox.enqueue([msg()], { muted: true });
    await outbox.enqueue([msg({ event: 'response' })]);
    await outbox.muteTask(5);
    await worker.runOnce();
    expect(email.sent).toEqual([]);
    expect((await list()).map((d) => d.status)).toEqual(['muted', 'muted']);
  });

  it('keeps messages of a channel without a transport as not_configured', async () => {
    const email = fakeTransport('EMAIL');
    const { outbox, worker, list } = setup({ transports: { EMAIL: email.transport } });
    await outbox.enqueue([msg({ channel: 'SMS', recipient: '+6281234567890' }), msg()]);
    await worker.runOnce();
    expect((await list()).map((d) => [d.channel, d.status, d.attempts])).toEqual([
      ['SMS', 'not_configured', 0],
      ['EMAIL', 'sent', 1],
    ]);
  });

  it("holds a tenant's messages over its rate limit for the next window, without spending an attempt, and lets other tenants through", async () => {
    const email = fakeTransport('EMAIL');
    const { outbox, worker, handle } = setup({
      transports: { EMAIL: email.transport },
      env: { NOTIFY_RATE_PER_MINUTE: '2' },
    });
    await outbox.enqueue([msg(), msg(), msg(), msg({ tenantId: 2, appId: 20 })]);
    await worker.runOnce();
    expect(email.sent.map((m) => m.appId)).toEqual([10, 10, 20]);
    const rows = handle.sqlite
      .prepare('SELECT status, attempts, next_attempt_at AS due FROM notification_outbox ORDER BY id')
      .all() as { status: string; attempts: number; due: number }[];
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['queued', 0],
      ['sent', 1],
    ]);
    expect(rows[2]!.due).toBeGreaterThan(1_000_000 + 50_000);
    expect((await worker.metrics()).rate_limited).toBe(1);
  });

  it('claims each message once when two workers share the database (scale-out)', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-notify-'));
    closers.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const a = fakeTransport('EMAIL', () => new Promise((r) => setTimeout(r, 5)));
    const b = fakeTransport('EMAIL', () => new Promise((r) => setTimeout(r, 5)));
    const one = setup({ transports: { EMAIL: a.transport }, dataDir: dir, deps: { batchSize: 7 } });
    const two = setup({ transports: { EMAIL: b.transport }, dataDir: dir, deps: { batchSize: 7 } });
    await one.outbox.enqueue(Array.from({ length: 40 }, (_, i) => msg({ body: `m${i}` })));
    for (let i = 0; i < 6; i++) await Promise.all([one.worker.runOnce(), two.worker.runOnce()]);
    const bodies = [...a.sent, ...b.sent].map((m) => m.body).sort();
    expect(bodies).toEqual(Array.from({ length: 40 }, (_, i) => `m${i}`).sort());
    expect(a.sent.length).toBeGreaterThan(0);
    expect(b.sent.length).toBeGreaterThan(0);
  });

  it('puts a message in flight at shutdown back in the queue, due at once (at-least-once)', async () => {
    const email = fakeTransport(
      'EMAIL',
      (_m, signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DeliveryError('aborted')))),
    );
    const { outbox, worker, list } = setup({ transports: { EMAIL: email.transport } });
    await outbox.enqueue([msg()]);
    worker.start();
    expect(await until(() => email.sent.length > 0)).toBe(true);
    expect(await list()).toMatchObject([{ status: 'sending' }]);
    await worker.close();
    expect(await list()).toMatchObject([{ status: 'queued', attempts: 0, last_error: null }]);
  });

  it("reclaims a message left 'sending' by a gateway that died, once its lease has ended", async () => {
    const email = fakeTransport('EMAIL');
    const { outbox, worker, handle, clock, list } = setup({ transports: { EMAIL: email.transport } });
    await outbox.enqueue([msg()]);
    handle.sqlite
      .prepare("UPDATE notification_outbox SET status = 'sending', next_attempt_at = ?")
      .run(clock.t + 60_000);
    await worker.runOnce();
    expect(email.sent).toEqual([]);
    clock.t += 60_000;
    await worker.runOnce();
    expect(await list()).toMatchObject([{ status: 'sent', attempts: 1 }]);
  });

  it('is woken by an enqueue once started, without waiting for its poll', async () => {
    const email = fakeTransport('EMAIL');
    const { outbox, worker, store } = setup({ transports: { EMAIL: email.transport }, deps: { pollMs: 60_000 } });
    // its first look (an empty outbox) is over once it asked when the next is due: from then on only the enqueue's
    // wake-up can find the message before the 60 s poll
    let looked = false;
    const nextDue = outbox.nextDue;
    outbox.nextDue = () => nextDue().finally(() => (looked = true));
    worker.start();
    expect(await until(() => looked)).toBe(true);
    await store.tx(() => outbox.enqueue([msg()]));
    // well before the 60 s poll
    expect(await until(() => email.sent.length > 0)).toBe(true);
    expect(email.sent).toHaveLength(1);
  });
});

describe('the notification worker, odd rows', () => {
  it("marks a 'sending' row of a channel it cannot send, whose lease ended, as not_configured instead of spinning on it", async () => {
    const email = fakeTransport('EMAIL');
    const { outbox, worker, handle, clock, list } = setup({ transports: { EMAIL: email.transport } });
    await outbox.enqueue([msg({ channel: 'SMS', recipient: '+6281234567890' })]);
    handle.sqlite.prepare("UPDATE notification_outbox SET status = 'sending', next_attempt_at = ?").run(clock.t - 1);
    await worker.runOnce();
    expect(await list()).toMatchObject([{ status: 'not_configured' }]);
  });
});

describe('the notification worker, idle', () => {
  it('looks at an empty outbox at its poll interval, not in a loop', async () => {
    const handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    closers.push(() => handle.close());
    let reads = 0;
    const outbox = createOutbox(sqliteStore(handle.sqlite, schema));
    const counted =
      <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
      (...a: A) => (reads++, fn(...a));
    const worker = createNotificationWorker({
      outbox: { ...outbox, anythingDue: counted(outbox.anythingDue), nextDue: counted(outbox.nextDue) },
      config: loadConfig({}),
      log: createLogger('silent'),
      transports: {},
      pollMs: 100,
    });
    closers.push(() => worker.close());
    const started = Date.now();
    worker.start();
    // time itself: a few poll intervals, for a worker that looked in a loop to show it
    await new Promise((r) => setTimeout(r, 350));
    // it looks again and again (however late a starved machine runs its timers)
    expect(await until(() => reads >= 4)).toBe(true);
    // one read for "anything due?" and one for "when next?" per look, a look per 100 ms (and one to spare): never
    // more, however long it ran
    const looks = Math.floor((Date.now() - started) / 100) + 2;
    expect(reads).toBeLessThanOrEqual(2 * looks);
  });
});
