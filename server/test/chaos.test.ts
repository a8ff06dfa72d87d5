// The chaos run (issue 37), smaller than `npm run chaos`: PostgreSQL + NATS + three gateways on separate directories
// behind HAProxy on loopback; devices publish QoS 1 through HAProxy while one gateway is killed with kill -9 (and
// started again), NATS is restarted and PostgreSQL is restarted. Nothing acknowledged is lost, nothing is stored twice,
// each crossing of a rule's threshold fires exactly once, a live viewer through HAProxy keeps getting pushes and every
// device of the killed gateway is online again within seconds.
import { describe, expect, it } from 'vitest';
import { hasNatsServer } from '../src/platform/bus/testing/nats-server.js';
import { hasPostgres } from '../src/platform/db/testing/postgres.js';
import { hasHaproxy } from '../chaos/cluster.js';
import { runChaos } from '../chaos/run.js';

describe.skipIf(!hasNatsServer || !hasPostgres || !hasHaproxy())(
  'chaos run (kill -9, NATS and PostgreSQL restarts)',
  () => {
    it('loses nothing acknowledged, stores nothing twice, fires once per crossing, keeps devices and viewers served', async () => {
      // half the devices cross the rule's threshold with every other message: a kill catches crossings in flight
      const f = await runChaos({
        devices: 80,
        gateways: 3,
        seconds: 30,
        intervalMs: 200,
        window: 2,
        ruleEvery: 2,
        flipEvery: 1,
        // a gateway's failed rule or task writes are printed when a crossing went without its firing
        log: (line) => void (/^gateway \d+( \(killed\))?: /.test(line) && console.error(line)),
      });
      expect(f.acknowledged_points).toBeGreaterThan(2000);
      expect(f.gateways_crashed).toBe(0);
      expect(f.acknowledged_lost).toBe(0);
      expect(f.duplicates_stored).toBe(0);
      expect(f.stored_points).toBeGreaterThanOrEqual(f.acknowledged_points);
      expect(f.rule_firings_expected).toBeGreaterThan(500);
      // each crossing fired once (the list names a device, its point's time and phase when one did not)
      expect(f.firings_mismatched).toEqual([]);
      expect(f.tasks_created).toBe(f.rule_firings_expected);
      expect(f.devices_reconnected).toBeGreaterThan(0);
      expect(f.all_online_ms).not.toBeNull();
      expect(f.all_online_ms!).toBeLessThan(20_000);
      expect(f.longest_live_gap_ms).not.toBeNull();
      expect(f.longest_live_gap_ms!).toBeLessThan(20_000);
      expect(f.ok).toBe(true);
    }, 150_000);
  },
);
