// Gateways on separate hosts (issue 37): two gateways on one PostgreSQL database and one NATS, each with its own
// DATA_DIR. Each stores what its own broker receives (no hop to another gateway), acknowledges only once the rule writes
// of the message's evaluation are committed too, and a device that moves from one to the other and back across a rule's
// crossing makes exactly one firing per crossing, a message it sends again after a lost acknowledgement none; one that
// comes back while NATS is down (the other gateway's commits never heard) reads its state again at its connection.
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rulesContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, tenantWithApp, until } from './fixtures.js';
import { hasNatsServer, startNatsServer, type NatsServer } from '../src/platform/bus/testing/nats-server.js';
import { hasPostgres, testDatabase } from '../src/platform/db/testing/postgres.js';

describe.skipIf(!hasNatsServer || !hasPostgres)('gateways storing locally (PostgreSQL + NATS)', () => {
  let nats: NatsServer;
  let a: Running;
  let b: Running;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    const env = { BUS: 'nats', NATS_URL: nats.url, DATABASE_URL: await testDatabase() };
    a = await startGateway(env);
    b = await startGateway(env);
  }, 60_000);
  afterAll(async () => {
    clients.forEach((c) => c.end(true));
    await a?.stop();
    await b?.stop();
    await nats?.stop();
  });

  const connect = async (gw: Running, d: { id: number; username: string; password: string }, clientId?: string) => {
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${gw.mqttPort}`, {
      username: d.username,
      password: d.password,
      clientId: clientId ?? `local-${d.id}`,
      reconnectPeriod: 0,
    });
    clients.push(c);
    return c;
  };
  const send = (c: MqttClient, id: number, ts: number, v: number) =>
    c.publishAsync(`d/${id}/data`, JSON.stringify({ _ts: ts, env: { data: { v } } }), { qos: 1 });
  const stored = (gw: Running) => (gw.app.telemetry.metrics().stored_points as number) ?? 0;

  /** a registered MQTT device and a rule firing when its `v` is above 50; the rule's firings as committed */
  async function deviceWithRule() {
    const owner = await tenantWithApp(a.url);
    const auth = { tenant: owner.tenant, domain: owner.domain };
    const row = await addDevice(a.url, auth, 'mqtt');
    const d = { id: row.id, username: row.store_mqtt_username, password: row.store_mqtt_password };
    const rule = await call(
      a.url,
      rulesContract.add,
      {
        name: 'Tinggi',
        category: 11,
        trigger: [
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'SENSOR' }, op: '==', value: 'env' },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'CONFIG' }, op: '==', value: 'data' },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'PARAM' }, op: '==', value: 'v' },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '>', value: 50 },
        ],
        condition: {},
        action: { name: 'Catat', title: 'v = {{value}}', new: [], response: [] },
      },
      auth,
    );
    expect(rule.body.response_result).toBe(0);
    const ruleId = rule.body.data.id as number;
    await until(() => b.app.rules.engine.rule(ruleId) !== undefined, 5000);
    /** the rule's firings as committed: one task, one occurrence per firing */
    const firings = async () =>
      Number(
        (
          await a.app.store.one<{ n: number }>(
            sql`SELECT coalesce(sum(occurrences), 0) AS n FROM tasks WHERE rule_id = ${ruleId}`,
          )
        )?.n ?? 0,
      );
    return { d, firings };
  }

  it('a device that moves between gateways across a crossing makes one firing per crossing; one sent again none', async () => {
    const { d, firings } = await deviceWithRule();

    const t0 = Date.now() - 60_000;
    const onA = await connect(a, d);
    const storedByB = stored(b);
    await send(onA, d.id, t0 + 1, 10);
    await send(onA, d.id, t0 + 2, 90); // the crossing
    // acknowledged means stored here, with the rule writes of its evaluation: the task is there at the PUBACK
    expect(await firings()).toBe(1);
    // stored by the gateway the device is on: none of it reached the other gateway's writer
    expect(stored(b)).toBe(storedByB);
    onA.end(true);

    // on B: the last message again (its PUBACK lost), then one still above: no firing
    const onB = await connect(b, d);
    const storedByA = stored(a);
    await send(onB, d.id, t0 + 2, 90);
    await send(onB, d.id, t0 + 3, 95);
    expect(await firings()).toBe(1);
    await send(onB, d.id, t0 + 4, 10); // below: the rule clears on B
    expect(stored(a)).toBe(storedByA);
    onB.end(true);

    // back on A, whose memory still says "above": it reads the state B left, and the next crossing fires once
    const again = await connect(a, d);
    await send(again, d.id, t0 + 5, 90);
    expect(await firings()).toBe(2);
    await send(again, d.id, t0 + 4, 10); // an old message sent again: skipped
    await send(again, d.id, t0 + 5, 90);
    expect(await firings()).toBe(2);
  }, 30_000);

  it("a device that comes back reads its state again, though the other gateway's commits never reached this one (NATS down)", async () => {
    const { d, firings } = await deviceWithRule();
    const t0 = Date.now() - 60_000;
    // on A: above, fired; A's memory of the device is current
    const onA = await connect(a, d, `epoch-a-${d.id}`);
    await send(onA, d.id, t0 + 1, 90);
    expect(await firings()).toBe(1);
    onA.end(true);
    // NATS goes down: B's commits cannot tell A (core NATS, at most once; a restart loses what is in flight)
    await nats.stop();
    try {
      const onB = await connect(b, d, `epoch-b-${d.id}`);
      await send(onB, d.id, t0 + 2, 10); // below: the rule clears on B
      onB.end(true);
      // back on A (another client id: no take-over to ask over the bus), whose memory still says "above"
      const again = await connect(a, d, `epoch-a2-${d.id}`);
      await send(again, d.id, t0 + 3, 90);
      expect(await firings()).toBe(2);
      again.end(true);
    } finally {
      nats = await startNatsServer(nats.port);
    }
  }, 30_000);
});
