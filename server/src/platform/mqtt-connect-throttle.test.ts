import { describe, expect, it } from 'vitest';
import { createConnectThrottle } from './mqtt-connect-throttle.js';

describe('MQTT CONNECT throttle', () => {
  it('blocks an address after its failures within a minute, and no other address', async () => {
    const t = createConnectThrottle({ failuresPerMinute: 3 });
    for (let i = 0; i < 3; i++) {
      expect(await t.blocked('10.0.0.1')).toBe(false);
      await t.failed('10.0.0.1');
    }
    // after three failures the fourth CONNECT is refused unchecked
    expect(await t.blocked('10.0.0.1')).toBe(true);
    expect(await t.blocked('10.0.0.2')).toBe(false);
    expect(t.metrics()).toEqual({ throttled_connects: 1, failed_connects: 3 });
  });
});
