// Publish of a triggering value → task stored and pushed to a socket.io client (rules.bench.ts runs this file in a
// child process and reads its figures over IPC).
import { performance } from 'node:perf_hooks';
import { rulesContract, TASK_LIVE, type TaskPush } from '@sentra/contracts';
import { call, startGateway } from '../test/harness.js';
import { addDevice, mqttAttempt, tenantWithApp } from '../test/fixtures.js';
import { ask, openSocket, sessionAuth } from '../src/platform/realtime/testing/client.js';
import { devices as devicesTable } from '../src/modules/devices/devices.table.js';
import { DEVICES, RULES, t } from './rules.bench.js';

const CROSSINGS = Number(process.env.RULES_BENCH_CROSSINGS ?? 100);

/**
 * Publish of a triggering value → task stored and pushed to a socket.io client, through the real gateway (MQTT QoS 1,
 * writer, engine, task transaction, bus, socket.io), with 1,000 active rules over 5,000 devices registered but no
 * other ingest load: each crossing (50 then 10) fires once, the open task gains an occurrence and is pushed.
 */
export async function pushLatency(): Promise<Record<string, number>> {
  const gw = await startGateway();
  try {
    const owner = await tenantWithApp(gw.url);
    const auth = { tenant: owner.tenant, domain: owner.domain };
    const device = await addDevice(gw.url, auth, 'mqtt', { name: 'Bench' });
    // 5,000 devices (rows) and 1,000 rules on them, through the rules service (validated, loaded into the engine)
    const now = Date.now();
    const rows = Array.from({ length: DEVICES - 1 }, (_, i) => ({
      appId: owner.appId,
      category: 1,
      categoryText: 'Dummy',
      deviceType: 'DUMMY',
      name: `Bench ${i}`,
      serialNumber: `BENCH-${i}`,
      createdAt: now,
      updatedAt: now,
    }));
    const ids: number[] = gw.app.db!.db.transaction((tx) =>
      rows.map((r) => tx.insert(devicesTable).values(r).returning({ id: devicesTable.id }).get().id),
    );
    for (let i = 0; i < RULES - 1; i++) {
      // the service's add runs synchronously on SQLite (~6 ms: validation, insert, the engine's index): 1,000 in one
      // turn held the event loop ~7 s, past the HTTP keep-alive timers of both ends, and the next call went out on a
      // socket the gateway closed in the same turn (ECONNRESET). A turn of the loop every 20 adds, as requests give.
      if (i % 20 === 19) await new Promise((r) => setImmediate(r));
      await gw.app.rules.rules.add(owner.appId, {
        name: `r${i}`,
        category: 11,
        description: '',
        condition: {
          triggers: [
            t('DEVICE_ID', '==', ids[(i * 5) % ids.length]!),
            t('SENSOR', '==', 'tank'),
            t('CONFIG', '==', 'fuel'),
            t('PARAM', '==', 'level'),
            t('VALUE', '<', 20),
          ],
        },
        action: { new: [], response: [] },
        details: {},
      });
    }
    const added = await call(
      gw.url,
      rulesContract.add,
      {
        name: 'Bench',
        category: 11,
        trigger: [
          t('DEVICE_ID', '==', device.id),
          t('SENSOR', '==', 'tank'),
          t('CONFIG', '==', 'fuel'),
          t('PARAM', '==', 'level'),
          t('VALUE', '<', 20),
        ],
        action: {},
      },
      auth,
    );
    if (added.body.response_result !== 0) throw new Error(JSON.stringify(added.body));
    const { socket } = await openSocket(gw.url, sessionAuth(owner, owner.domain));
    const a = await mqttAttempt(gw.mqttPort, {
      clientId: 'bench-rules',
      username: device.store_mqtt_username,
      password: device.store_mqtt_password,
    });
    if (!socket || !a.client) throw new Error('no socket or MQTT client');
    await ask(socket, 'subscribe', { channel: TASK_LIVE.channel, params: {} });
    let waiting: ((p: TaskPush) => void) | undefined;
    socket.on(TASK_LIVE.event, (p: TaskPush) => waiting?.(p));
    const ms: number[] = [];
    for (let i = 0; i < CROSSINGS; i++) {
      await a.client.publishAsync(`d/${device.id}/data`, JSON.stringify({ tank: { fuel: { level: 50 } } }), { qos: 1 });
      const pushed = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no push within 5 s')), 5000);
        waiting = (p) => p.task.device_id === device.id && (clearTimeout(timer), resolve());
      });
      const t0 = performance.now();
      await a.client.publishAsync(`d/${device.id}/data`, JSON.stringify({ tank: { fuel: { level: 10 } } }), { qos: 1 });
      await pushed;
      ms.push(performance.now() - t0);
    }
    a.client.end(true);
    socket.close();
    ms.sort((x, y) => x - y);
    const q = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]! * 10) / 10;
    return {
      push_crossings: ms.length,
      publish_to_push_p50_ms: q(0.5),
      publish_to_push_p99_ms: q(0.99),
      publish_to_push_max_ms: q(1),
    };
  } finally {
    await gw.stop();
  }
}

if (process.send) {
  pushLatency().then(
    (figures) => (process.send!({ ok: true, figures }), process.exit(0)),
    (err) => (process.send!({ ok: false, error: String(err) }), process.exit(1)),
  );
}
