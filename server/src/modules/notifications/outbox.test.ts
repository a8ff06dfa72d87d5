// The outbox on both engines: what a task's messages are stored as, the caller's transaction, and the worker's side
// (due, claim once, record only while sending, not configured, counts).
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createOutbox, type Outbox, type OutboxMessage } from './outbox.js';

const mail = (over: Partial<OutboxMessage> = {}): OutboxMessage => ({
  tenantId: 1,
  appId: 10,
  taskId: 5,
  ruleId: 3,
  event: 'new',
  channel: 'EMAIL',
  recipient: 'ops@example.com',
  subject: 'Tangki hampir kosong',
  body: 'Level 9 %',
  ...over,
});

forEachEngine('the notification outbox', (open, kind) => {
  let opened: OpenedStore;
  let outbox: Outbox;
  const clock = { t: 1_000 };
  beforeEach(async () => {
    opened = await open();
    clock.t = 1_000;
    outbox = createOutbox(opened.store, { now: () => clock.t });
  });
  afterEach(() => opened?.close());
  const setStatus = (id: number, status: string, due?: number) =>
    opened.store.exec(
      due === undefined
        ? sql`UPDATE notification_outbox SET status = ${status} WHERE id = ${id}`
        : sql`UPDATE notification_outbox SET status = ${status}, next_attempt_at = ${due} WHERE id = ${id}`,
    );
  const ids = async () => (await outbox.listForTask(10, 5)).map((d) => d.id);

  it('stores queued messages that the task lists with their status', async () => {
    await outbox.enqueue([mail(), mail({ channel: 'SMS', recipient: '+6281234567890', subject: undefined })]);
    expect(await outbox.listForTask(10, 5)).toMatchObject([
      {
        channel: 'EMAIL',
        recipient: 'ops@example.com',
        subject: 'Tangki hampir kosong',
        event: 'new',
        status: 'queued',
        attempts: 0,
        last_error: null,
        created_at: 1_000,
        sent_at: null,
      },
      { channel: 'SMS', recipient: '+6281234567890', subject: null, status: 'queued' },
    ]);
  });

  it("lists a task's messages only within its application", async () => {
    await outbox.enqueue([mail()]);
    expect(await outbox.listForTask(11, 5)).toEqual([]);
  });

  it('commits or rolls back with the caller’s transaction', async () => {
    await expect(
      opened.store.tx(async () => {
        await outbox.enqueue([mail()]);
        throw new Error('task change failed');
      }),
    ).rejects.toThrow('task change failed');
    expect(await outbox.listForTask(10, 5)).toEqual([]);
    await opened.store.tx(() => outbox.enqueue([mail()]));
    expect(await outbox.listForTask(10, 5)).toHaveLength(1);
  });

  it('stores the messages of a muted task as muted, and muting a task mutes its queued messages only', async () => {
    await outbox.enqueue([mail()], { muted: true });
    await outbox.enqueue([mail({ event: 'response' })]);
    const [, second] = await ids();
    await setStatus(second!, 'sent');
    await outbox.enqueue([mail({ event: 'reminder' })]);
    await outbox.muteTask(5);
    expect((await outbox.listForTask(10, 5)).map((d) => [d.event, d.status])).toEqual([
      ['new', 'muted'],
      ['response', 'sent'],
      ['reminder', 'muted'],
    ]);
  });

  it('stores a message with an invalid address as failed with the reason, never throwing into the task change', async () => {
    await outbox.enqueue([
      mail({ recipient: 'not-an-address' }),
      mail({ channel: 'WHATSAPP', recipient: '0812' }),
      mail({ channel: 'WEBHOOK', recipient: 'file:///etc/passwd' }),
      mail({ channel: 'PIGEON' as never }),
    ]);
    expect((await outbox.listForTask(10, 5)).map((d) => [d.status, d.last_error])).toEqual([
      ['failed', 'invalid recipient for EMAIL'],
      ['failed', 'invalid recipient for WHATSAPP'],
      ['failed', 'invalid recipient for WEBHOOK'],
      ['failed', 'unknown channel PIGEON'],
    ]);
  });

  it('removes a task’s messages and their attempts', async () => {
    await outbox.enqueue([mail(), mail({ taskId: 6 })]);
    const [mine] = await ids();
    const other = (await outbox.listForTask(10, 6))[0]!.id;
    await outbox.attempted({ outboxId: mine!, taskId: 5, ts: 2_000, outcome: 'retry', error: 'down' });
    await outbox.attempted({ outboxId: other, taskId: 6, ts: 2_000, outcome: 'sent', error: null });
    expect(await outbox.attemptsForTask(10, 5)).toEqual([
      { outboxId: mine, ts: 2_000, outcome: 'retry', error: 'down' },
    ]);
    await outbox.removeTask(5);
    expect(await outbox.listForTask(10, 5)).toEqual([]);
    expect(await outbox.attemptsForTask(10, 5)).toEqual([]);
    expect(await outbox.listForTask(10, 6)).toHaveLength(1);
    expect(await outbox.attemptsForTask(10, 6)).toHaveLength(1);
  });

  it("lists a task's attempts oldest first, only within its application", async () => {
    await outbox.enqueue([mail(), mail({ channel: 'SMS', recipient: '+6281234567890' })]);
    const [a, b] = await ids();
    await outbox.attempted({ outboxId: b!, taskId: 5, ts: 3_000, outcome: 'sent', error: null });
    await outbox.attempted({ outboxId: a!, taskId: 5, ts: 2_000, outcome: 'failed', error: 'x' });
    expect((await outbox.attemptsForTask(10, 5)).map((r) => r.outboxId)).toEqual([a, b]);
    expect(await outbox.attemptsForTask(11, 5)).toEqual([]);
  });

  it('wakes its listener once, after the enqueuing transaction (on SQLite by itself; on PostgreSQL when told)', async () => {
    let woken = 0;
    outbox.onEnqueued(() => woken++);
    await opened.store.tx(async () => {
      await outbox.enqueue([mail()]);
      await outbox.enqueue([mail()]);
      // SQLite's transaction runs within one turn of the event loop; PostgreSQL's spans turns
      if (kind === 'sqlite') expect(woken).toBe(0);
    });
    if (kind === 'postgres') {
      await new Promise((r) => setImmediate(r));
      woken = 0;
      outbox.queued();
      outbox.queued();
    }
    await new Promise((r) => setImmediate(r));
    expect(woken).toBe(1);
  });

  it('answers what is due and when, and claims due messages of its channels once, oldest due first', async () => {
    expect(await outbox.anythingDue(5_000)).toBe(false);
    expect(await outbox.nextDue()).toBeNull();
    clock.t = 2_000;
    await outbox.enqueue([mail({ body: 'b' })]);
    clock.t = 1_500;
    await outbox.enqueue([mail({ body: 'a' }), mail({ channel: 'SMS', recipient: '+6281234567890' })]);
    expect(await outbox.anythingDue(1_000)).toBe(false);
    expect(await outbox.anythingDue(1_500)).toBe(true);
    expect(await outbox.nextDue()).toBe(1_500);
    const first = await outbox.claim(['EMAIL'], 3_000, 63_000, 1);
    expect(first).toMatchObject([{ body: 'a', channel: 'EMAIL', tenantId: 1, appId: 10, taskId: 5, attempts: 0 }]);
    const rest = await outbox.claim(['EMAIL', 'WEBHOOK'], 3_000, 63_000, 10);
    expect(rest.map((r) => r.body)).toEqual(['b']);
    // claimed: under lease, not due again until it ends
    expect(await outbox.claim(['EMAIL'], 3_000, 63_000, 10)).toEqual([]);
    expect(await outbox.claim([], 3_000, 63_000, 10)).toEqual([]);
    expect((await outbox.claim(['EMAIL'], 63_000, 123_000, 10)).map((r) => r.body).sort()).toEqual(['a', 'b']);
  });

  it('claims each message once when claims race (gateways sharing the database)', async () => {
    // a few rounds: on PostgreSQL the claims run on connections of their own and do race
    for (let round = 0; round < 3; round++) {
      const bodies = Array.from({ length: 40 }, (_, i) => `r${round}m${i}`);
      await outbox.enqueue(bodies.map((body) => mail({ body })));
      const claims = Array.from({ length: 8 }, () => outbox.claim(['EMAIL'], 1_000, 10_000_000, 6));
      const claimed = (await Promise.all(claims)).flat().map((r) => r.body);
      expect(new Set(claimed).size).toBe(claimed.length);
      // what no claim got is still there for the next
      const rest = (await outbox.claim(['EMAIL'], 1_000, 10_000_000, 40)).map((r) => r.body);
      expect([...claimed, ...rest].sort()).toEqual(bodies.sort());
    }
  });

  it("records an outcome only while the message is 'sending'", async () => {
    await outbox.enqueue([mail(), mail()]);
    const [a, b] = await outbox.claim(['EMAIL'], 1_000, 61_000, 10);
    expect(await outbox.record(a!.id, { status: 'sent', sentAt: 2_000 })).toBe(true);
    expect(await outbox.record(a!.id, { status: 'failed', attempts: 9, lastError: 'late' })).toBe(false);
    expect(await outbox.record(b!.id, { status: 'queued', attempts: 1, lastError: 'down', nextAttemptAt: 5_000 })).toBe(
      true,
    );
    expect((await outbox.listForTask(10, 5)).map((d) => [d.status, d.attempts, d.last_error, d.sent_at])).toEqual([
      ['sent', 1, null, 2_000],
      ['queued', 1, 'down', null],
    ]);
    expect(await outbox.nextDue()).toBe(5_000);
    const [again] = await outbox.claim(['EMAIL'], 5_000, 65_000, 10);
    expect(await outbox.record(again!.id, { status: 'failed', attempts: 2, lastError: 'gone' })).toBe(true);
    expect((await outbox.listForTask(10, 5))[1]).toMatchObject({ status: 'failed', attempts: 2, last_error: 'gone' });
  });

  it("marks open messages of channels without a transport not_configured, a lapsed 'sending' one too", async () => {
    await outbox.enqueue([
      mail(),
      mail({ channel: 'SMS', recipient: '+6281234567890' }),
      mail({ channel: 'WHATSAPP', recipient: '+6281234567890' }),
      mail({ channel: 'SMS', recipient: '+6281234567891' }),
    ]);
    const [, , wa, sms2] = await ids();
    await setStatus(wa!, 'sending', 10_000);
    await setStatus(sms2!, 'sending', 500);
    await outbox.markNotConfigured(['EMAIL'], 1_000);
    expect((await outbox.listForTask(10, 5)).map((d) => d.status)).toEqual([
      'queued',
      'not_configured',
      'sending',
      'not_configured',
    ]);
    await outbox.markNotConfigured([], 1_000);
    expect((await outbox.listForTask(10, 5)).map((d) => d.status)).toEqual([
      'not_configured',
      'not_configured',
      'sending',
      'not_configured',
    ]);
    expect(await outbox.countByStatus()).toEqual([
      { status: 'not_configured', n: 3 },
      { status: 'sending', n: 1 },
    ]);
  });
});
