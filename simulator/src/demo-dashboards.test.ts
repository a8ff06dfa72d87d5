// What the demo installs, card for card: the dashboards `installDemoDashboards` adds (label, path, description and
// conf_dashboard), kept in a snapshot so a change to how they are built that changes what they hold is seen. The
// snapshot is the JSON text the add call sends, so even the order of the fields is kept.
import { describe, expect, it } from 'vitest';
import { DEMO_FLEET, demoDashboards } from './demo.js';
import { planFleet } from './fleet/plan.js';

/** the dashboards as the add call sends them */
const sent = (dashboards: unknown) => JSON.stringify(dashboards, null, 1);

describe('the demo dashboards', () => {
  const plans = planFleet({ ...DEMO_FLEET, domain: 'demo' });
  const devices = plans.map((plan) => ({ plan, id: 1000 + plan.index }));

  it('come out as they did, card for card, for the demo fleet', () => {
    expect(sent(demoDashboards(devices))).toMatchSnapshot();
  });

  it('come out as they did without Tasmota plugs (the plug cards left out)', () => {
    expect(sent(demoDashboards(devices.filter((d) => d.plan.family !== 'tasmota')))).toMatchSnapshot();
  });

  it('follow the seed: products and machines are read from the devices as they report', () => {
    expect(sent(demoDashboards(devices, 'another seed'))).toMatchSnapshot();
  });
});
