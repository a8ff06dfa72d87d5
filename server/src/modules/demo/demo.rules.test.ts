import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../../test/harness.js';
import { seedDemo } from './demo.seed.js';
import { DEMO_RULES, seedDemoRules } from './demo.rules.js';

describe('demo rules', async () => {
  const gw = await startGateway();
  afterAll(() => gw.stop());

  it('adds the ready rules once, valid and active in the engine; a demo meter above 229 V on phase R opens a task', async () => {
    const { appId } = await seedDemo(gw.app.store);
    expect(await seedDemoRules(gw.app.rules.rules, appId)).toBe(DEMO_RULES.length);
    expect(await seedDemoRules(gw.app.rules.rules, appId)).toBe(0);
    expect(gw.app.rules.engine.metrics().rules).toBe(DEMO_RULES.length);
    // the engine as the demo fleet's meter readings reach it (pm/meter/voltage with subparams r, s, t)
    const point = (r: number, ts: number) =>
      ['r', 's', 't'].map((sub) => ({
        sensor: 'pm',
        config: 'meter',
        param: 'voltage',
        subparam: sub,
        value: sub === 'r' ? r : 225,
        ts,
      }));
    await gw.app.store.exec(
      sql`INSERT INTO devices (id, app_id, name, serial_number, category, device_type, sensors, tags, created_at, updated_at) VALUES (900001, ${appId}, 'Meter Demo', 'SN-DEMO-1', 1, 'MQTT', '{}', '{}', 0, 0)`,
    );
    gw.app.rules.engine.telemetry({ appId, deviceId: 900001, points: point(226, Date.now()) });
    gw.app.rules.engine.telemetry({ appId, deviceId: 900001, points: point(229.6, Date.now() + 1) });
    const tasks = (await gw.app.rules.tasks.list(appId, { page: 0, size: 10 })).tasks;
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ title: 'Tegangan tinggi Meter Demo (229.6 V)', device_name: 'Meter Demo' });
  });
});
