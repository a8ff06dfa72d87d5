// Tugas as an alarm console, server side: a task's timeline (created, occurrences, status changes and mutes with who
// made them, every notification as queued or settled and each attempt to send it) and the channels the gateway is
// configured for (what the rule editor and the task warn about), through the real gateway with a real SMTP server.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import {
  CHANNEL_VARIABLES,
  notificationsContract,
  rulesContract,
  tasksContract,
  type Task,
  type TaskEvent,
} from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { startMailSink, type MailSink } from './support/mail-sink.js';
import { memberWithRole, tenantWithApp, until } from './fixtures.js';
import { mqttDevice, settle, type AppAuth } from './device-data.kit.js';

let gw: Running;
let sink: MailSink;
let owner: Awaited<ReturnType<typeof tenantWithApp>>;
let auth: AppAuth;
const clients: MqttClient[] = [];

beforeAll(async () => {
  sink = await startMailSink();
  // EMAIL configured, SMS and WhatsApp not
  gw = await startGateway({ SMTP_URL: sink.url, SMTP_FROM: 'Sentra <alerts@contoh.id>' });
  owner = await tenantWithApp(gw.url);
  auth = { tenant: owner.tenant, domain: owner.domain };
});
afterAll(async () => {
  clients.forEach((c) => c.end(true));
  await gw?.stop();
  await sink?.close();
});

const rule = (deviceId: number) => ({
  name: 'Suhu ruang panel',
  key: 'panel_hot',
  category: 11,
  description: 'Suhu di atas 40 °C',
  trigger: [
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'DEVICE_ID' }, op: '==', value: deviceId },
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'SENSOR' }, op: '==', value: 'env' },
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'CONFIG' }, op: '==', value: 'data' },
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'PARAM' }, op: '==', value: 'temp' },
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '>', value: 40 },
  ],
  condition: {},
  action: {
    name: 'Kabari',
    new: [{ type: 'EMAIL', email: 'teknisi@contoh.id', subject: 'Panas', content: 'Suhu {{value}}' }],
    response: [{ type: 'SMS', phone: '+6281234567890', content: 'Tugas {{task.status}}' }],
  },
});

describe('a task timeline', () => {
  it('tells created, occurrences, status changes and mutes with who made them, and each notification and attempt', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients, { name: 'Panel Timur' });
    expect((await call(gw.url, rulesContract.add, rule(device.id), auth)).body.response_result).toBe(0);
    const temp = async (v: number) => {
      const before = gw.app.rules.engine.metrics().messages;
      await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ env: { data: { temp: v } } }), { qos: 1 });
      await settle(gw, () => gw.app.rules.engine.metrics().messages > before);
    };
    const tasks = async () => (await call(gw.url, tasksContract.list, {}, auth)).body.tasks as Task[];
    await temp(30);
    await temp(45);
    await settle(gw, async () => (await tasks()).length === 1);
    const [task] = await tasks();
    await temp(20);
    await temp(47);
    await settle(gw, async () => (await tasks())[0]?.occurrences === 2);
    // the e-mail of the new group goes out (an attempt), then a status change by the tenant and a mute
    await sink.waitFor(1, 5000);
    expect((await call(gw.url, tasksContract.changeStatus, { id: task!.id, status: 2 }, auth)).body.data.status).toBe(
      2,
    );
    await call(gw.url, tasksContract.notificationActivate, { id: task!.id, active: false }, auth);

    const timeline = async () =>
      (await call(gw.url, tasksContract.timeline, { id: task!.id }, auth)).body.events as TaskEvent[];
    expect(await until(async () => (await timeline()).some((e) => e.outcome === 'sent'))).toBe(true);
    const events = await timeline();
    // newest first
    expect(events.map((e) => e.ts)).toEqual([...events.map((e) => e.ts)].sort((a, b) => b - a));
    const of = (kind: TaskEvent['kind']) => events.filter((e) => e.kind === kind);
    expect(of('created')).toEqual([expect.objectContaining({ value: '45', status: 1, actor: null })]);
    expect(of('occurrence')).toEqual([expect.objectContaining({ value: '47' })]);
    expect(of('status')).toEqual([expect.objectContaining({ status: 2, previous: 1, actor: owner.username })]);
    expect(of('notification_off')).toEqual([expect.objectContaining({ actor: owner.username })]);
    const notes = of('notification').map((e) => [e.channel, e.recipient, e.outcome]);
    expect(notes).toEqual(
      expect.arrayContaining([
        ['EMAIL', 'teknisi@contoh.id', 'queued'],
        ['EMAIL', 'teknisi@contoh.id', 'sent'],
        // the response group's SMS: no SMS provider on this gateway, muted or not configured, never sent
        ['SMS', '+6281234567890', expect.stringMatching(/^(not_configured|muted)$/)],
      ]),
    );
  });

  it("answers 404 for another tenant's task and keeps nothing once the task is removed", async () => {
    const [task] = (await call(gw.url, tasksContract.list, {}, auth)).body.tasks as Task[];
    const other = await tenantWithApp(gw.url);
    const oa = { tenant: other.tenant, domain: other.domain };
    expect((await call(gw.url, tasksContract.timeline, { id: task!.id }, oa)).status).toBe(404);
    expect((await call(gw.url, tasksContract.remove, { id: task!.id }, auth)).body.response_result).toBe(0);
    expect((await call(gw.url, tasksContract.timeline, { id: task!.id }, auth)).status).toBe(404);
    // the task's own history goes with it (foreign key), its messages' attempts with its messages
    const left = await gw.app.store.one<{ n: number }>(
      sql`SELECT (SELECT count(*) FROM task_events WHERE task_id = ${task!.id}) + (SELECT count(*) FROM notification_attempts WHERE task_id = ${task!.id}) AS n`,
    );
    expect(left?.n).toBe(0);
  });
});

describe('the notification channels of the gateway', () => {
  it('says which channels are configured and which variables configure the others, never their values', async () => {
    const r = await call(gw.url, notificationsContract.channels, {}, auth);
    expect(r.body.response_result).toBe(0);
    // every channel, in the channels' order (contracts/src/channels/index.ts: the rule form's)
    expect(r.body.channels).toEqual([
      { channel: 'EMAIL', configured: true, variables: ['SMTP_URL', 'SMTP_FROM'] },
      { channel: 'WHATSAPP', configured: false, variables: ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_TOKEN'] },
      { channel: 'SMS', configured: false, variables: [...CHANNEL_VARIABLES.SMS] },
      { channel: 'WEBHOOK', configured: true, variables: [] },
    ]);
    expect(JSON.stringify(r.body)).not.toContain(sink.url);
    expect(JSON.stringify(r.body)).not.toContain('alerts@contoh.id');
  });

  it('answers whoever writes rules or follows tasks, and 403 to a role with neither', async () => {
    for (const sys_navs of [['_task_list_'], ['_device_manage_']] as const) {
      const m = await memberWithRole(gw.url, owner, { sys_navs });
      const r = await call(gw.url, notificationsContract.channels, {}, { member: m.member, domain: owner.domain });
      expect(r.body.response_result, sys_navs[0]).toBe(0);
    }
    const none = await memberWithRole(gw.url, owner, { sys_navs: ['_user_manage_'] });
    expect(
      (await call(gw.url, notificationsContract.channels, {}, { member: none.member, domain: owner.domain })).status,
    ).toBe(403);
  });
});
