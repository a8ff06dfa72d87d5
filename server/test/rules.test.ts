// Rules and tasks through the real gateway: rule calls, an MQTT publish crossing a threshold, the task it creates,
// occurrences, status changes with the response group, the live task push, access and isolation.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Socket } from 'socket.io-client';
import {
  deviceFamilyCalls,
  devicesContract,
  rulesContract,
  statesContract,
  TASK_LIVE,
  tasksContract,
  type Task,
  type TaskPush,
} from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { startMailSink, type MailSink } from './support/mail-sink.js';
import { memberWithRole, tenantWithApp, until } from './fixtures.js';
import { mqttDevice, settle, startDataGateway, type AppAuth, type Owner } from './device-data.kit.js';
import { ask, openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';

const fuelRule = (deviceId: number, extra: Record<string, unknown> = {}) => ({
  name: 'Tangki hampir kosong',
  category: 11,
  description: 'Level BBM di bawah 20 %',
  key: 'fuel_low',
  trigger: [
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'DEVICE_ID' }, op: '==', value: deviceId },
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'SENSOR' }, op: '==', value: 'tank' },
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'CONFIG' }, op: '==', value: 'fuel' },
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'PARAM' }, op: '==', value: 'level' },
    { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '<', value: 20 },
  ],
  condition: {},
  action: {
    name: 'Kirim email',
    title: 'BBM {{device.name}} tinggal {{value}} %',
    new: [
      {
        type: 'EMAIL',
        email: 'ops@contoh.id',
        subject: 'BBM rendah: {{device.name}}',
        content: '{{sensor}}/{{config}}/{{param}} = {{value}} pada {{time}}',
      },
    ],
    response: [{ type: 'SMS', phone: '+6281234567890', content: 'Tugas {{task.title}} sekarang {{task.status}}' }],
  },
  ...extra,
});

describe('rules and tasks (issue 25)', () => {
  let gw: Running;
  let owner: Owner;
  let auth: AppAuth;
  const clients: MqttClient[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    ({ gw, owner, auth } = await startDataGateway());
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    clients.forEach((c) => c.end(true));
    await gw?.stop();
  });

  /** publishes a fuel level and waits until the engine has evaluated the committed message (it travels via the bus) */
  const level = async (client: MqttClient, id: number, v: number) => {
    const before = gw.app.rules.engine.metrics().messages;
    await client.publishAsync(`d/${id}/data`, JSON.stringify({ tank: { fuel: { level: v } } }), { qos: 1 });
    await settle(gw, () => gw.app.rules.engine.metrics().messages > before);
  };
  const tasksOf = async (a: AppAuth = auth) =>
    (await call(gw.url, tasksContract.list, { size: 100 }, a)).body.tasks as Task[];

  it('an MQTT publish crossing the threshold creates one task, a second crossing while open adds an occurrence', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients, { name: 'Genset A' });
    const added = await call(gw.url, rulesContract.add, fuelRule(device.id), auth);
    expect(added.body.response_result).toBe(0);
    expect(added.body.data.condition.triggers).toHaveLength(5);

    // the live Tugas list: subscribed before anything fires
    const { socket } = await openSocket(gw.url, sessionAuth(owner, owner.domain));
    sockets.push(socket!);
    const pushes: TaskPush[] = [];
    socket!.on(TASK_LIVE.event, (p: TaskPush) => pushes.push(p));
    expect((await ask(socket!, 'subscribe', { channel: TASK_LIVE.channel, params: {} })).response_result).toBe(0);

    await level(client, device.id, 50);
    await settle(gw);
    expect(await tasksOf()).toHaveLength(0);

    await level(client, device.id, 12);
    await settle(gw, async () => (await tasksOf()).length === 1);
    let [task] = await tasksOf();
    expect(task).toMatchObject({
      title: 'BBM Genset A tinggal 12 %',
      status: 1,
      status_value: 'New',
      occurrences: 1,
      last_value: '12',
      device_id: device.id,
      device_name: 'Genset A',
      notification_active: true,
    });
    expect(await until(() => pushes.some((p) => p.kind === 'created' && p.task.id === task!.id))).toBe(true);

    // still below: no transition, nothing new
    await level(client, device.id, 8);
    await settle(gw);
    expect((await tasksOf())[0]).toMatchObject({ id: task!.id, occurrences: 1 });

    // back above, then below again while the task is open: one more occurrence on the same task
    await level(client, device.id, 60);
    await settle(gw);
    await level(client, device.id, 5);
    await settle(gw, async () => (await tasksOf())[0]?.occurrences === 2);
    const all = await tasksOf();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: task!.id, occurrences: 2, last_value: '5' });
    expect(await until(() => pushes.some((p) => p.kind === 'changed' && p.task.occurrences === 2))).toBe(true);

    // the new group's email is in the task's notifications, rendered from the event
    const got = await call(gw.url, tasksContract.get, { id: task!.id }, auth);
    expect(got.body.data.status_value).toBe('New');
    const mails = got.body.data.notifications.filter((n: { event: string }) => n.event === 'new');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ channel: 'EMAIL', recipient: 'ops@contoh.id', subject: 'BBM rendah: Genset A' });

    // changing the status runs the response group
    const changed = await call(gw.url, tasksContract.changeStatus, { id: task!.id, status: 2 }, auth);
    expect(changed.body.response_result).toBe(0);
    expect(changed.body.data).toMatchObject({ status: 2, status_value: 'In progress' });
    task = (await call(gw.url, tasksContract.get, { id: task!.id }, auth)).body.data;
    const sms = (
      task as unknown as { notifications: Array<{ event: string; channel: string; recipient: string }> }
    ).notifications.filter((n) => n.event === 'response');
    expect(sms).toEqual([expect.objectContaining({ channel: 'SMS', recipient: '+6281234567890' })]);

    // solved: the next crossing opens a new task
    await call(gw.url, tasksContract.changeStatus, { id: task!.id, status: 4 }, auth);
    await level(client, device.id, 70);
    await settle(gw);
    await level(client, device.id, 3);
    await settle(gw, async () => (await tasksOf()).length === 2);
    const two = await tasksOf();
    expect(two.map((t) => t.status).sort()).toEqual([1, 4]);
  });

  it('muting a task stores its later notifications as muted', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const rule = fuelRule(device.id, { key: 'fuel_low_mute' });
    expect((await call(gw.url, rulesContract.add, rule, auth)).body.response_result).toBe(0);
    await level(client, device.id, 1);
    await settle(gw, async () => (await tasksOf()).some((t) => t.device_id === device.id));
    const task = (await tasksOf()).find((t) => t.device_id === device.id)!;
    const muted = await call(gw.url, tasksContract.notificationActivate, { id: task.id, active: false }, auth);
    expect(muted.body.data.notification_active).toBe(false);
    await call(gw.url, tasksContract.changeStatus, { id: task.id, status: 3 }, auth);
    const got = await call(gw.url, tasksContract.get, { id: task.id }, auth);
    const response = got.body.data.notifications.filter((n: { event: string }) => n.event === 'response');
    expect(response.map((n: { status: string }) => n.status)).toEqual(['muted']);
    expect((await call(gw.url, tasksContract.remove, { id: task.id }, auth)).body.response_result).toBe(0);
    expect((await call(gw.url, tasksContract.get, { id: task.id }, auth)).status).toBe(404);
  });

  it('answers 403 "Akses ditolak (aksi ini hanya dapat dilakukan oleh role lebih tinggi)" to a role without task_manage', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    expect(
      (await call(gw.url, rulesContract.add, fuelRule(device.id, { key: 'fuel_403' }), auth)).body.response_result,
    ).toBe(0);
    await level(client, device.id, 2);
    await settle(gw, async () => (await tasksOf()).some((t) => t.device_id === device.id));
    const task = (await tasksOf()).find((t) => t.device_id === device.id)!;

    const viewer = await memberWithRole(gw.url, owner, { sys_navs: ['_task_list_'] });
    const va = { member: viewer.member, domain: owner.domain };
    expect((await call(gw.url, tasksContract.list, {}, va)).body.response_result).toBe(0);
    const refused = await call(gw.url, tasksContract.changeStatus, { id: task.id, status: 2 }, va);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Akses ditolak (aksi ini hanya dapat dilakukan oleh role lebih tinggi)');

    const manager = await memberWithRole(gw.url, owner, {
      sys_navs: ['_task_list_'],
      permissions: { task_manage: true },
    });
    const ok = await call(
      gw.url,
      tasksContract.changeStatus,
      { id: task.id, status: 2 },
      { member: manager.member, domain: owner.domain },
    );
    expect(ok.body.response_result).toBe(0);

    // rules need device management
    expect((await call(gw.url, rulesContract.list, {}, va)).status).toBe(403);
    const deviceManager = await memberWithRole(gw.url, owner, { sys_navs: ['_device_manage_'] });
    expect(
      (await call(gw.url, rulesContract.list, {}, { member: deviceManager.member, domain: owner.domain })).body
        .response_result,
    ).toBe(0);
    expect(
      (await call(gw.url, tasksContract.list, {}, { member: deviceManager.member, domain: owner.domain })).status,
    ).toBe(403);
  });

  it("answers 404 for another tenant's rule and task ids, and refuses a rule naming another application's device", async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const added = await call(gw.url, rulesContract.add, fuelRule(device.id, { key: 'fuel_iso' }), auth);
    await level(client, device.id, 4);
    await settle(gw, async () => (await tasksOf()).some((t) => t.device_id === device.id));
    const task = (await tasksOf()).find((t) => t.device_id === device.id)!;

    const other = await tenantWithApp(gw.url);
    const oa = { tenant: other.tenant, domain: other.domain };
    expect((await call(gw.url, rulesContract.get, { id: added.body.data.id }, oa)).status).toBe(404);
    expect((await call(gw.url, rulesContract.remove, { id: added.body.data.id }, oa)).status).toBe(404);
    expect((await call(gw.url, rulesContract.activate, { id: added.body.data.id, active: false }, oa)).status).toBe(
      404,
    );
    expect((await call(gw.url, tasksContract.get, { id: task.id }, oa)).status).toBe(404);
    expect((await call(gw.url, tasksContract.changeStatus, { id: task.id, status: 5 }, oa)).status).toBe(404);
    expect((await call(gw.url, tasksContract.remove, { id: task.id }, oa)).status).toBe(404);
    expect((await call(gw.url, tasksContract.list, {}, oa)).body.tasks).toEqual([]);

    const foreign = await call(gw.url, rulesContract.add, fuelRule(device.id, { key: 'steal' }), oa);
    expect(foreign.status).toBe(400);
    expect(foreign.body.response_result).toBe(-10);
    expect(foreign.body.errors[0]).toEqual({
      path: 'condition.triggers.0.value',
      message: 'Perangkat tidak terdaftar pada aplikasi ini',
    });
  });

  it('answers -10 with the path for a malformed rule body, and -12 for a taken key', async () => {
    const badJson = await call(
      gw.url,
      rulesContract.add,
      { name: 'x', category: 11, condition: '{"triggers": [', action: '{}', details: '{}' },
      auth,
    );
    expect(badJson.body.response_result).toBe(-10);
    expect(badJson.body.errors).toContainEqual({
      path: 'condition',
      message: 'Kondisi harus dalam bentuk JSON yang benar',
    });

    const badOp = await call(
      gw.url,
      rulesContract.add,
      {
        name: 'x',
        category: 11,
        condition: JSON.stringify({
          triggers: [{ node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '!=', value: 1 }],
        }),
        action: '{}',
        details: '{}',
      },
      auth,
    );
    expect(badOp.body.response_result).toBe(-10);
    expect(badOp.body.errors[0].path).toBe('condition.triggers.0.op');

    const badPhone = await call(
      gw.url,
      rulesContract.add,
      {
        ...fuelRule(1, { key: 'p' }),
        trigger: [{ field: { query: 'VALUE' }, op: '<', value: 1 }],
        action: { new: [{ type: 'SMS', phone: '0812', content: 'x' }] },
      },
      auth,
    );
    expect(badPhone.body.response_result).toBe(-10);
    expect(badPhone.body.errors[0].path).toBe('action.new.0.phone');

    const badCategory = await call(
      gw.url,
      rulesContract.add,
      { name: 'x', category: 13, condition: {}, action: {}, details: {} },
      auth,
    );
    expect(badCategory.body.errors[0].path).toBe('category');

    const longName = await call(
      gw.url,
      rulesContract.add,
      { name: 'n'.repeat(31), category: 111, condition: {}, action: {} },
      auth,
    );
    expect(longName.body.errors[0]).toEqual({ path: 'name', message: 'Maksimal 30 karakter' });

    // a 23-digit threshold would be compared rounded: refused with the trigger's path (issue 38)
    const longThreshold = await call(
      gw.url,
      rulesContract.add,
      {
        ...fuelRule(1, { key: 'long_value' }),
        trigger: [{ field: { query: 'VALUE' }, op: '>', value: 12345678901234567890123 }],
      },
      auth,
    );
    expect(longThreshold.body.response_result).toBe(-10);
    expect(longThreshold.body.errors[0]).toEqual({
      path: 'trigger.0.value',
      message: 'Nilai angka maksimal 15 digit',
    });

    const ok = await call(
      gw.url,
      rulesContract.add,
      { name: 'Perangkat baru', category: 111, key: 'created_x', condition: {}, action: {} },
      auth,
    );
    expect(ok.body.response_result).toBe(0);
    const dup = await call(
      gw.url,
      rulesContract.add,
      { name: 'Perangkat baru 2', category: 111, key: 'created_x', condition: {}, action: {} },
      auth,
    );
    expect(dup.body.response_result).toBe(-12);

    // edit: category read-only
    const edit = await call(
      gw.url,
      rulesContract.edit,
      { id: ok.body.data.id, name: 'Diubah', category: 112, condition: {}, action: {} },
      auth,
    );
    expect(edit.body.response_result).toBe(-10);
    const edited = await call(
      gw.url,
      rulesContract.edit,
      { id: ok.body.data.id, name: 'Diubah', category: 111, condition: {}, action: {}, details: '{"catatan": "ok"}' },
      auth,
    );
    expect(edited.body.data).toMatchObject({ name: 'Diubah', key: 'created_x', details: { catatan: 'ok' } });
  });

  it('a rule whose device is deleted stops cleanly: switched off, its tasks kept', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const rule = await call(
      gw.url,
      rulesContract.add,
      fuelRule(device.id, { key: 'fuel_gone', condition: { duration_s: 3600 } }),
      auth,
    );
    expect(rule.body.response_result, JSON.stringify(rule.body)).toBe(0);
    await level(client, device.id, 1);
    // the publish reaches the writer through the bus: settle until the engine has seen it
    await settle(gw, () => gw.app.rules.engine.state(rule.body.data.id, device.id)?.phase === 'pending');
    expect(gw.app.rules.engine.state(rule.body.data.id, device.id)?.phase).toBe('pending');
    const removed = await call(gw.url, deviceFamilyCalls.mqtt.remove, { id: device.id }, auth);
    expect(removed.body.response_result).toBe(0);
    expect(
      await until(
        async () => (await call(gw.url, rulesContract.get, { id: rule.body.data.id }, auth)).body.data.active === false,
      ),
    ).toBe(true);
    expect(gw.app.rules.engine.state(rule.body.data.id, device.id)).toBeUndefined();
    // the kept state goes through the engine's write queue (after the pending phase's own write), not with the switch-off
    // the console sees: on a loaded machine it may commit a little after it
    const kept = async () =>
      (await gw.app.store.one<{ n: number }>(sql`SELECT count(*) AS n FROM rule_states WHERE device_id = ${device.id}`))
        ?.n;
    expect(await until(async () => (await kept()) === 0)).toBe(true);
  });

  it('device events reach their rules: created (111), info updated (112), offline (22 with VALUE == 0)', async () => {
    const created = await call(
      gw.url,
      rulesContract.add,
      {
        name: 'Perangkat baru',
        category: 111,
        key: 'ev_created',
        condition: {},
        action: { title: 'Baru: {{device.name}}' },
      },
      auth,
    );
    expect(created.body.response_result).toBe(0);
    const offline = await call(
      gw.url,
      rulesContract.add,
      {
        name: 'Perangkat offline',
        category: 22,
        key: 'ev_offline',
        trigger: [{ field: { query: 'VALUE' }, op: '==', value: 0 }],
        action: { title: '{{device.name}} offline' },
      },
      auth,
    );
    expect(offline.body.response_result).toBe(0);
    const { device, client } = await mqttDevice(gw, auth, clients, { name: 'Pompa Timur' });
    expect(await until(async () => (await tasksOf()).some((t) => t.title === 'Baru: Pompa Timur'))).toBe(true);
    expect((await tasksOf()).find((t) => t.title === 'Baru: Pompa Timur')).toMatchObject({
      category: 111,
      device_id: device.id,
    });

    const updated = await call(
      gw.url,
      rulesContract.add,
      {
        name: 'Info berubah',
        category: 112,
        key: 'ev_updated',
        trigger: [{ field: { query: 'DEVICE_ID' }, op: '==', value: device.id }],
        action: { title: 'Diubah: {{device.name}}' },
      },
      auth,
    );
    expect(updated.body.response_result).toBe(0);
    expect(
      (await call(gw.url, devicesContract.edit, { id: device.id, name: 'Pompa Barat' }, auth)).body.response_result,
    ).toBe(0);
    expect(await until(async () => (await tasksOf()).some((t) => t.title === 'Diubah: Pompa Barat'))).toBe(true);

    client.end(true);
    expect(
      await until(
        async () => (await tasksOf()).some((t) => t.title === 'Pompa Barat offline' && t.category === 22),
        5000,
      ),
    ).toBe(true);
    // the rules are switched off again so the other tests' devices do not add tasks
    for (const r of [created, offline, updated])
      await call(gw.url, rulesContract.activate, { id: r.body.data.id, active: false }, auth);
  });

  it('state events reach their rules: a reported state (31) and a deleted state (32)', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients, { name: 'Panel Listrik' });
    const manual = await call(
      gw.url,
      rulesContract.add,
      {
        name: 'Mode manual',
        category: 31,
        key: 'ev_state',
        trigger: [
          { field: { query: 'DEVICE_ID' }, op: '==', value: device.id },
          { field: { query: 'SENSOR' }, op: '==', value: 'mode' },
          { field: { query: 'VALUE' }, op: '==', value: 'manual' },
        ],
        action: { title: '{{device.name}} mode {{value}}' },
      },
      auth,
    );
    const deleted = await call(
      gw.url,
      rulesContract.add,
      {
        name: 'Kondisi dihapus',
        category: 32,
        key: 'ev_state_del',
        trigger: [{ field: { query: 'DEVICE_ID' }, op: '==', value: device.id }],
        action: { title: 'Kondisi {{sensor}} dihapus' },
      },
      auth,
    );
    expect([manual.body.response_result, deleted.body.response_result]).toEqual([0, 0]);
    await client.publishAsync(`d/${device.id}/state`, JSON.stringify({ mode: 'auto' }), { qos: 1 });
    await client.publishAsync(`d/${device.id}/state`, JSON.stringify({ mode: 'manual' }), { qos: 1 });
    await settle(gw, async () => (await tasksOf()).some((t) => t.title === 'Panel Listrik mode manual'));
    expect((await tasksOf()).filter((t) => t.rule_id === manual.body.data.id)).toHaveLength(1);
    expect(
      (await call(gw.url, statesContract.remove, { device_id: device.id, key: 'mode' }, auth)).body.response_result,
    ).toBe(0);
    expect(
      await until(async () =>
        (await tasksOf()).some((t) => t.rule_id === deleted.body.data.id && t.title === 'Kondisi mode dihapus'),
      ),
    ).toBe(true);
  });

  it('tests a rule against the stored data of the last hours without creating anything', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const base = Date.now() - 60_000;
    for (const [i, v] of [50, 30, 10, 15, 40, 5].entries())
      await client.publishAsync(
        `d/${device.id}/data`,
        JSON.stringify({ _ts: base + i * 1000, tank: { fuel: { level: v } } }),
        { qos: 1 },
      );
    await settle(gw);
    const before = (await tasksOf()).length;
    const r = fuelRule(device.id);
    const tested = await call(
      gw.url,
      rulesContract.test,
      { category: 11, trigger: r.trigger, condition: {}, device_id: device.id, hours: 1 },
      auth,
    );
    expect(tested.body.response_result).toBe(0);
    expect(tested.body.firings.map((f: { ts: number; value: number }) => [f.ts - base, f.value])).toEqual([
      [2000, 10],
      [5000, 5],
    ]);
    expect(tested.body.series[0].points).toHaveLength(6);
    expect((await tasksOf()).length).toBe(before);
  });
});

describe('rules deliver their messages (with rules-delivery): an email arrives at a real SMTP server', () => {
  let gw: Running | undefined;
  let sink: MailSink | undefined;
  const clients: MqttClient[] = [];
  afterAll(async () => {
    clients.forEach((c) => c.end(true));
    await gw?.stop();
    await sink?.close();
  });

  it('a crossing sends the new group by email; a status change sends the response group; a second crossing only adds an occurrence', async () => {
    sink = await startMailSink();
    gw = await startGateway({ SMTP_URL: sink.url, SMTP_FROM: 'Sentra <alerts@contoh.id>' });
    const owner = await tenantWithApp(gw.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const { device, client } = await mqttDevice(gw, auth, clients, { name: 'Genset C' });
    const body = fuelRule(device.id);
    body.action.response = [
      {
        type: 'EMAIL',
        email: 'supervisor@contoh.id',
        subject: 'Tugas {{task.title}}: {{task.status}}',
        content: 'Status baru {{task.status}}',
      },
    ] as never;
    expect((await call(gw.url, rulesContract.add, body, auth)).body.response_result).toBe(0);
    const send = async (v: number) => {
      const before = gw!.app.rules.engine.metrics().messages;
      await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ tank: { fuel: { level: v } } }), { qos: 1 });
      await settle(gw!, () => gw!.app.rules.engine.metrics().messages > before);
    };

    await send(40);
    await send(15);
    const [mail] = await sink.waitFor(1, 5000);
    expect(mail).toMatchObject({
      subject: 'BBM rendah: Genset C',
      toAddresses: ['ops@contoh.id'],
      fromAddress: 'alerts@contoh.id',
    });
    expect(mail!.text).toContain('tank/fuel/level = 15 pada ');
    const task = ((await call(gw.url, tasksContract.list, {}, auth)).body.tasks as Task[])[0]!;
    expect(task.title).toBe('BBM Genset C tinggal 15 %');

    expect(
      (await call(gw.url, tasksContract.changeStatus, { id: task.id, status: 3 }, auth)).body.response_result,
    ).toBe(0);
    const mails = await sink.waitFor(2, 5000);
    expect(mails[1]).toMatchObject({
      subject: 'Tugas BBM Genset C tinggal 15 %: Pending',
      toAddresses: ['supervisor@contoh.id'],
    });

    await send(50);
    await send(10);
    expect(
      await until(
        async () => ((await call(gw!.url, tasksContract.list, {}, auth)).body.tasks as Task[])[0]?.occurrences === 2,
      ),
    ).toBe(true);
    expect((await call(gw.url, tasksContract.list, {}, auth)).body.total).toBe(1);
    // the worker marks a message sent after the SMTP server's answer
    const deliveries = async () =>
      (await call(gw!.url, tasksContract.get, { id: task.id }, auth)).body.data.notifications.map(
        (n: { event: string; status: string }) => [n.event, n.status],
      );
    await until(async () => (await deliveries()).every(([, status]: string[]) => status === 'sent'));
    expect(await deliveries()).toEqual([
      ['new', 'sent'],
      ['response', 'sent'],
    ]);
  });
});
