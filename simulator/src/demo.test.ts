import { describe, expect, it } from 'vitest';
import { gridHeight, type CardTypeCode } from '@sentra/contracts';
import { DEMO_FLEET, demoDashboardProblems, demoDashboards } from './demo.js';
import { planFleet } from './fleet/plan.js';

describe('the demo', () => {
  const plans = planFleet({ ...DEMO_FLEET, domain: 'demo' });
  const devices = plans.map((plan) => ({ plan, id: 1000 + plan.index }));
  const dashboards = demoDashboards(devices);

  it('runs a few hundred devices of every family', () => {
    expect(plans.length).toBe(300);
    expect(new Set(plans.map((p) => p.family)).size).toBe(12);
  });

  it('has energy, fuel station, laundry, environment, structure and fleet map dashboards that the gateway accepts', () => {
    expect(dashboards.map((d) => d.path)).toEqual(['energi', 'spbu', 'laundry', 'lingkungan', 'struktur', 'peta_armada']);
    expect(demoDashboardProblems(dashboards)).toEqual([]);
  });

  it('lays every dashboard out on the grid without two cards overlapping once heights are doubled on load', () => {
    for (const d of dashboards) {
      const cells = new Map<string, string>();
      for (const c of Object.values(d.conf_dashboard.dashboard ?? {})) {
        const h = gridHeight(c.cat as CardTypeCode, c.h);
        for (let x = c.x; x < c.x + c.w; x++) {
          for (let y = c.y; y < c.y + h; y++) {
            expect(cells.get(`${x},${y}`), `${d.path}: ${c.key} overlaps at ${x},${y}`).toBeUndefined();
            cells.set(`${x},${y}`, c.key);
          }
        }
      }
    }
  });

  it('names the registered devices by id', () => {
    const fuel = devices.find((d) => d.plan.family === 'mqtt' && d.plan.profile === 'fuel')!;
    expect(JSON.stringify(dashboards.find((d) => d.path === 'spbu'))).toContain(`"device_id":${fuel.id}`);
  });
});
