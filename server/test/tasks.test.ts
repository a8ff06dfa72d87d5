// Tasks across a gateway restart and across two gateways (BUS=nats): a pending duration and an open task survive a
// restart; with two gateways each committed message is evaluated once, so one crossing makes one task.
import { isUniqueViolation } from '../src/platform/db/unique.js';
import { sql } from 'drizzle-orm';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { rulesContract, tasksContract, type Task } from '@sentra/contracts';
import { call, engineEnv, startGateway, startScaleOut, type Running } from './harness.js';
import { addDevice, mqttAttempt, tenantWithApp, unique, until } from './fixtures.js';
import type { AppAuth } from './device-data.kit.js';
import { hasNatsServer } from '../src/platform/bus/testing/nats-server.js';

const rule = (deviceId: number, condition: Record<string, unknown> = {}) => ({
  name: 'Tangki hampir kosong',
  category: 11,
  trigger: [
    { field: { query: 'DEVICE_ID' }, op: '==', value: deviceId },
    { field: { query: 'SENSOR' }, op: '==', value: 'tank' },
    { field: { query: 'CONFIG' }, op: '==', value: 'fuel' },
    { field: { query: 'PARAM' }, op: '==', value: 'level' },
    { field: { query: 'VALUE' }, op: '<', value: 20 },
  ],
  condition,
  action: { new: [{ type: 'EMAIL', email: 'ops@contoh.id', subject: 'BBM {{device.name}}', content: '{{value}}' }] },
});

async function connectDevice(gw: Running, device: Record<string, any>, clients: MqttClient[]) {
  const a = await mqttAttempt(gw.mqttPort, {
    clientId: unique('c'),
    username: device.store_mqtt_username,
    password: device.store_mqtt_password,
  });
  if (!a.client) throw new Error(`refused: ${a.code}`);
  clients.push(a.client);
  return a.client;
}

const tasksOf = async (gw: Running, auth: AppAuth) =>
  (await call(gw.url, tasksContract.list, { size: 100 }, auth)).body.tasks as Task[];
const evaluated = (...gws: Running[]) => gws.reduce((n, g) => n + g.app.rules.engine.metrics().messages, 0);

describe('tasks across a restart', () => {
  const clients: MqttClient[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-rules-restart-'));
  let gw: Running | undefined;
  afterAll(async () => {
    clients.forEach((c) => c.end(true));
    await gw?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a pending duration and an open task across a gateway restart', async () => {
    // the gateways run on a clock `ahead` of the real one: a restart "after the duration" is a start with the clock
    // moved on, so the test never depends on how long a (starved) stop and start take against a real duration
    let ahead = 0;
    // the same database for every start: DATA_DIR on SQLite, one PostgreSQL database on PostgreSQL
    const same = { DATA_DIR: dataDir, ...(await engineEnv()) };
    const start = () => startGateway(same, { now: () => Date.now() + ahead });
    gw = await start();
    const owner = await tenantWithApp(gw.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const device = await addDevice(gw.url, auth, 'mqtt', { name: 'Genset B' });
    const added = await call(gw.url, rulesContract.add, rule(device.id, { duration_s: 60 }), auth);
    expect(added.body.response_result).toBe(0);
    const ruleId = added.body.data.id as number;

    let client = await connectDevice(gw, device, clients);
    const send = async (v: number) => {
      const before = evaluated(gw!);
      await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ tank: { fuel: { level: v } } }), { qos: 1 });
      expect(await until(async () => (await gw!.app.telemetry.flush(), evaluated(gw!) > before))).toBe(true);
    };
    await send(10);
    const pending = gw.app.rules.engine.state(ruleId, device.id)!;
    expect(pending).toMatchObject({ phase: 'pending', due: pending.since + 60_000 });
    client.end(true);
    await gw.stop();

    // the same database, a new process before the duration is over: still pending, nothing fired
    gw = await start();
    expect(gw.app.rules.engine.state(ruleId, device.id)).toMatchObject({ phase: 'pending', due: pending.due });
    expect(await tasksOf(gw, auth)).toHaveLength(0);
    await gw.stop();

    // a new process after it is over: the restored duration fires at once, at its due time
    ahead = 61_000;
    gw = await start();
    expect(await until(async () => (await tasksOf(gw!, auth)).length === 1, 6000)).toBe(true);
    expect(gw.app.rules.engine.metrics().fired).toBe(1);
    const [task] = await tasksOf(gw, auth);
    expect(task).toMatchObject({ occurrences: 1, first_ts: pending.due, last_value: '10', device_name: 'Genset B' });

    // the open task survives the next restart: a later crossing adds an occurrence to it
    await gw.stop();
    gw = await start();
    await call(gw.url, rulesContract.edit, { id: ruleId, ...rule(device.id, {}) }, auth);
    client = await connectDevice(gw, device, clients);
    await send(60);
    await send(5);
    expect(await until(async () => (await tasksOf(gw!, auth))[0]?.occurrences === 2)).toBe(true);
    expect(await tasksOf(gw, auth)).toHaveLength(1);
  }, 60_000); // four gateway starts: well within the default bound on an idle machine, not on a starved one
});

describe('one open task per rule and device', () => {
  it('is enforced by the database: a second open task of a rule and device is refused, a solved one is not', async () => {
    const gw = await startGateway();
    try {
      const owner = await tenantWithApp(gw.url);
      const insert = (status: number, open: number) =>
        gw.app.store.exec(
          sql`INSERT INTO tasks (app_id, rule_id, category, device_id, title, status, open, first_ts, last_ts, created_at, updated_at) VALUES (${owner.appId}, 7, 11, 3, 'x', ${status}, ${open}, 0, 0, 0, 0)`,
        );
      await insert(1, 1);
      // SQLite says UNIQUE, PostgreSQL "duplicate key value violates unique constraint"
      await expect(insert(2, 1)).rejects.toSatisfy(isUniqueViolation);
      await expect(insert(4, 0)).resolves.toBeDefined();
    } finally {
      await gw.stop();
    }
  });
});

describe.skipIf(!hasNatsServer)('tasks with two gateways (BUS=nats)', () => {
  const clients: MqttClient[] = [];
  let scale: Awaited<ReturnType<typeof startScaleOut>> | undefined;
  afterAll(async () => {
    clients.forEach((c) => c.end(true));
    await scale?.stop();
  });

  it('evaluates each message once: one crossing, one task, on the gateway that stored it (PostgreSQL: the device’s own; SQLite: one of the queue group); rules written on one gateway apply on both', async () => {
    scale = await startScaleOut();
    const { one, two } = scale;
    const owner = await tenantWithApp(one.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const device = await addDevice(one.url, auth, 'mqtt');
    // the rule is written through gateway two; the device talks to gateway one
    expect((await call(two.url, rulesContract.add, rule(device.id), auth)).body.response_result).toBe(0);
    expect(await until(() => one.app.rules.engine.metrics().rules > 0)).toBe(true);
    const client = await connectDevice(one, device, clients);
    const send = async (v: number) => {
      const before = evaluated(one, two);
      await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ tank: { fuel: { level: v } } }), { qos: 1 });
      expect(await until(() => evaluated(one, two) > before)).toBe(true);
    };
    // SQLite: crossings until both gateways took part (the rule-engine queue group spreads the commits at random): four
    // at least, at most twelve. PostgreSQL: the device's gateway stores and evaluates every one of its messages
    const local = one.app.telemetry.storesLocally;
    const tookPart = (gw: Running) => gw.app.rules.engine.metrics().messages > 0;
    let rounds = 0;
    while (rounds < 4 || (!local && rounds < 12 && !(tookPart(one) && tookPart(two)))) {
      await send(50);
      await send(10);
      await send(9);
      rounds++;
    }
    expect(tookPart(one)).toBe(true);
    expect(tookPart(two)).toBe(!local);
    expect(await until(async () => (await tasksOf(one, auth))[0]?.occurrences === rounds, 5000)).toBe(true);
    expect(await tasksOf(two, auth)).toHaveLength(1);
    expect(one.app.rules.engine.metrics().fired + two.app.rules.engine.metrics().fired).toBe(rounds);
  });
});
