import { describe, expect, it } from 'vitest';
import { createConnectThrottle } from './mqtt-connect-throttle.js';

describe('MQTT CONNECT throttle', () => {
  it("refuses a username's CONNECTs from an address after its failures there, unchecked; other usernames and addresses go on", async () => {
    const t = createConnectThrottle({ failuresPerMinute: 3 });
    for (let i = 0; i < 3; i++) {
      expect((await t.enter('dev-1', '10.0.0.1')).go).toBe(true);
      await t.failed('dev-1', '10.0.0.1', true);
    }
    expect(await t.enter('dev-1', '10.0.0.1')).toMatchObject({ go: false });
    expect((await t.enter('dev-2', '10.0.0.1')).go).toBe(true);
    expect((await t.enter('dev-1', '10.0.0.2')).go).toBe(true);
    expect(t.metrics()).toEqual({
      throttled_connects: 1,
      failed_connects: 3,
      slowed_connects: 0,
      provisional_refused: 0,
    });
  });

  it('admits clients without credentials per address up to its limit', async () => {
    const t = createConnectThrottle({ failuresPerMinute: 3, unknownPerMinute: 2 });
    expect(await t.provisional('10.0.0.3')).toBe(true);
    expect(await t.provisional('10.0.0.3')).toBe(true);
    expect(await t.provisional('10.0.0.3')).toBe(false);
    expect(await t.provisional('10.0.0.4')).toBe(true);
    expect(t.metrics().provisional_refused).toBe(1);
  });
});
