// The host's speed figures (host-speed.ts) are measured, not made up: finite, positive, and of the right order.
import { expect, it } from 'vitest';
import { hostSpeed } from './host-speed.js';

it('measures the JSON work and the loopback writes of this host', async () => {
  const s = await hostSpeed();
  expect(s.js_ms).toBeGreaterThan(1);
  expect(s.js_ms).toBeLessThan(5_000);
  expect(s.loopback_write_us).toBeGreaterThan(0.5);
  expect(s.loopback_write_us).toBeLessThan(1_000);
});
