import { describe, expect, it } from 'vitest';
import { ConfDashboard } from '@sentra/contracts';
import { dummyDashboardConf, sensorParams } from './dummy-dashboard.js';

describe('Generate Dashboard for a dummy device', () => {
  it('writes a dashboard the conf_dashboard v2 schema accepts, one LATEST card per parameter on the 4-column grid', () => {
    const params = sensorParams({ env: { data: { temperature: 0, humidity: 0, pressure: 0, lux: 0, co2: 0 } } });
    const conf = dummyDashboardConf({ id: 7, name: 'Sensor Gudang' }, params);
    const parsed = ConfDashboard.safeParse(conf);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const cards = Object.values(conf.dashboard ?? {});
    expect(cards).toHaveLength(5);
    expect(cards.every((c) => c.x + c.w <= 4)).toBe(true);
    expect(cards[4]).toMatchObject({ x: 0, y: 1 });
  });
  it('writes a title card when the device has no parameters yet', () => {
    const conf = dummyDashboardConf({ id: 7, name: 'Sensor Gudang' }, []);
    expect(ConfDashboard.safeParse(conf).success).toBe(true);
    expect(Object.values(conf.dashboard ?? {})[0]).toMatchObject({ cat: 'TITLE', view: { title: 'Sensor Gudang' } });
  });
});
