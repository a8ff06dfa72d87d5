import { afterEach, describe, expect, it } from 'vitest';
import { findUp, openDb } from '../../platform/db/sqlite.js';
import * as schema from '../../schema.js';
import { createOutbox, type OutboxMessage } from './outbox.js';

const handles: { close(): void }[] = [];
afterEach(() => handles.splice(0).forEach((h) => h.close()));

function setup(now = () => 1_000) {
  const handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  handles.push(handle);
  return { handle, outbox: createOutbox(handle.db, { now }) };
}

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

describe('the notification outbox', () => {
  it('stores queued messages that the task lists with their status', () => {
    const { outbox } = setup();
    outbox.enqueue([mail(), mail({ channel: 'SMS', recipient: '+6281234567890', subject: undefined })]);
    const list = outbox.listForTask(10, 5);
    expect(list).toMatchObject([
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

  it("lists a task's messages only within its application", () => {
    const { outbox } = setup();
    outbox.enqueue([mail()]);
    expect(outbox.listForTask(11, 5)).toEqual([]);
  });

  it('commits or rolls back with the caller’s transaction', () => {
    const { handle, outbox } = setup();
    expect(() =>
      handle.db.transaction(() => {
        outbox.enqueue([mail()]);
        throw new Error('task change failed');
      }),
    ).toThrow('task change failed');
    expect(outbox.listForTask(10, 5)).toEqual([]);
    handle.db.transaction(() => outbox.enqueue([mail()]));
    expect(outbox.listForTask(10, 5)).toHaveLength(1);
  });

  it('stores the messages of a muted task as muted, and muting a task mutes its queued messages only', () => {
    const { handle, outbox } = setup();
    outbox.enqueue([mail()], { muted: true });
    outbox.enqueue([mail({ event: 'response' })]);
    handle.sqlite.prepare("UPDATE notification_outbox SET status = 'sent' WHERE id = 1").run();
    outbox.enqueue([mail({ event: 'reminder' })]);
    handle.sqlite.prepare("UPDATE notification_outbox SET status = 'sent' WHERE id = 2").run();
    outbox.muteTask(5);
    expect(outbox.listForTask(10, 5).map((d) => [d.event, d.status])).toEqual([
      ['new', 'sent'],
      ['response', 'sent'],
      ['reminder', 'muted'],
    ]);
  });

  it('stores a message with an invalid address as failed with the reason, never throwing into the task change', () => {
    const { outbox } = setup();
    outbox.enqueue([
      mail({ recipient: 'not-an-address' }),
      mail({ channel: 'WHATSAPP', recipient: '0812' }),
      mail({ channel: 'WEBHOOK', recipient: 'file:///etc/passwd' }),
    ]);
    expect(outbox.listForTask(10, 5).map((d) => [d.status, d.last_error])).toEqual([
      ['failed', 'invalid recipient for EMAIL'],
      ['failed', 'invalid recipient for WHATSAPP'],
      ['failed', 'invalid recipient for WEBHOOK'],
    ]);
  });

  it('removes a task’s messages', () => {
    const { outbox } = setup();
    outbox.enqueue([mail(), mail({ taskId: 6 })]);
    outbox.removeTask(5);
    expect(outbox.listForTask(10, 5)).toEqual([]);
    expect(outbox.listForTask(10, 6)).toHaveLength(1);
  });

  it('wakes its listener once, after the enqueuing transaction', async () => {
    const { handle, outbox } = setup();
    let woken = 0;
    outbox.onEnqueued(() => woken++);
    handle.db.transaction(() => {
      outbox.enqueue([mail()]);
      outbox.enqueue([mail()]);
      expect(woken).toBe(0);
    });
    await new Promise((r) => setImmediate(r));
    expect(woken).toBe(1);
  });
});
