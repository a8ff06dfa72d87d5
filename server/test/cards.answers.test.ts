// The card GET answers repeated questions from memory, yet never stale data: a commit touching what a card read drops
// its answer before the next GET (the same index keys as the live push).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { cardsContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDashboard, latestPower, tenantWithApp, until } from './fixtures.js';
import { mqttDevice, type AppAuth } from './device-data.kit.js';

describe('card answers kept between requests', () => {
  let gw: Running;
  const clients: MqttClient[] = [];
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    clients.forEach((c) => c.end(true));
    await gw.stop();
  });

  it('serves a repeated GET from memory and the new value right after a publish', async () => {
    const owner = await tenantWithApp(gw.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const { device, client } = await mqttDevice(gw, auth, clients);
    const latest = latestPower(device.id);
    const conf = {
      version: '2',
      config: { refresh: 0 },
      var: {},
      dashboard: { daya: { key: 'daya', cat: 'SINGLE_VALUE_CARD', x: 0, y: 0, w: 1, h: 1, model: { value: latest } } },
    };
    const dashboardId = await addDashboard(gw.url, auth, 'Panel', conf);
    const get = async () => (await call(gw.url, cardsContract.get, { dashboardId, componentKey: 'daya' }, auth)).body;
    const stored = () => (gw.app.telemetry.metrics() as { stored_points: number }).stored_points;
    const answers = gw.app.cards.engine.answers.stats;

    for (const v of [10, 11, 12]) {
      const before = stored();
      await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ pm: { meter: { power: v } } }), { qos: 1 });
      expect(await until(() => stored() > before)).toBe(true);
      const dropped = answers.dropped;
      const hits = answers.hits;
      expect((await get()).value).toBe(v);
      expect((await get()).value).toBe(v);
      expect(answers.hits).toBeGreaterThan(hits); // the second GET came from memory
      if (v > 10) expect(dropped).toBeGreaterThan(0); // the publish dropped the answer the earlier GETs kept
    }
  });
});
