// Rules under ingest (issue 25's performance part): 1,000 active rules over the served fleet's devices, added through
// the rule calls, and publish of a triggering value → task pushed to a socket.io client while the fleet publishes.
import { performance } from 'node:perf_hooks';
import { rulesContract, TASK_LIVE, type TaskPush } from '@sentra/contracts';
import { call } from '../../test/harness.js';
import { mqttAttempt } from '../../test/fixtures.js';
import { ask, openSocket, sessionAuth } from '../../src/platform/realtime/testing/client.js';
import { t } from '../rules.bench.js';
import type { ServedFleet } from './served.js';

/** the rules' share that fires: humidity ≥ 46 (the fleet's humidity walks 40..46, so a watched device crosses often) */
const FIRING_EVERY = 20;

/**
 * `count` rules, one device each (every fifth device), all watching the fleet's real env/data series: most test
 * temperature > 1000 (never met: evaluated on every point, never fire), one in FIRING_EVERY tests humidity ≥ 46 and
 * fires on each crossing (one open task per rule and device then gains occurrences).
 */
export async function addRules(
  url: string,
  fleet: ServedFleet,
  count: number,
  concurrency = 8,
): Promise<{ rules_added: number; rules_firing: number; rules_add_ms: number }> {
  const started = performance.now();
  let next = 0;
  let firing = 0;
  async function worker() {
    while (next < count) {
      const i = next++;
      const device = fleet.devices[(i * 5) % fleet.devices.length]!;
      const fires = i % FIRING_EVERY === 0;
      if (fires) firing++;
      const trigger = fires
        ? [
            t('DEVICE_ID', '==', device.id),
            t('SENSOR', '==', 'env'),
            t('CONFIG', '==', 'data'),
            t('PARAM', '==', 'humidity'),
            t('VALUE', '>=', 46),
          ]
        : [
            t('DEVICE_ID', '==', device.id),
            t('SENSOR', '==', 'env'),
            t('CONFIG', '==', 'data'),
            t('PARAM', '==', 'temperature'),
            t('VALUE', '>', 1000),
          ];
      const r = await call(
        url,
        rulesContract.add,
        { name: `Bench ${i}`, category: 11, trigger, action: {} },
        fleet.auth,
      );
      if (r.body.response_result !== 0) throw new Error(`rule ${i}: ${r.status} ${JSON.stringify(r.body)}`);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { rules_added: count, rules_firing: firing, rules_add_ms: Math.round(performance.now() - started) };
}

export interface PushProbe {
  /** runs crossings until `stop()` or `max`; answers the publish → pushed latencies (ms) */
  run(max: number): Promise<number[]>;
  stop(): void;
  close(): void;
  /** crossings whose push did not arrive within 5 s */
  missed(): number;
  /** points the probe published (each one stored), to leave out of the fleet's loss figures */
  points(): number;
}

/**
 * A device of its own (registered through REST, outside the fleet) with a rule `tank/fuel/level < 20`, an MQTT.js
 * client for it and a socket.io client subscribed to the task channel: each crossing publishes 50 then 10 (QoS 1)
 * and times the 10's publish until the task push for that device arrives (at most 5 s).
 */
export async function pushProbe(
  url: string,
  mqttPort: number,
  fleet: ServedFleet,
  deviceId: number,
  username: string,
  password: string,
): Promise<PushProbe> {
  const trigger = [
    t('DEVICE_ID', '==', deviceId),
    t('SENSOR', '==', 'tank'),
    t('CONFIG', '==', 'fuel'),
    t('PARAM', '==', 'level'),
    t('VALUE', '<', 20),
  ];
  const added = await call(
    url,
    rulesContract.add,
    { name: 'Bench push', category: 11, trigger, action: {} },
    fleet.auth,
  );
  if (added.body.response_result !== 0) throw new Error(`push rule: ${JSON.stringify(added.body)}`);
  const { socket } = await openSocket(url, sessionAuth(fleet.owner, fleet.owner.domain));
  const a = await mqttAttempt(mqttPort, { clientId: 'bench-push', username, password });
  if (!socket || !a.client) throw new Error('push probe: no socket or MQTT client');
  await ask(socket, 'subscribe', { channel: TASK_LIVE.channel, params: {} });
  let waiting: ((p: TaskPush) => void) | undefined;
  socket.on(TASK_LIVE.event, (p: TaskPush) => waiting?.(p));
  let stopped = false;
  let published = 0;
  let missed = 0;
  const topic = `d/${deviceId}/data`;
  return {
    async run(max) {
      const ms: number[] = [];
      for (let i = 0; i < max && !stopped; i++) {
        await a.client!.publishAsync(topic, JSON.stringify({ tank: { fuel: { level: 50 } } }), { qos: 1 });
        published++;
        // settles true when the push came, false after 5 s: never a rejection left unhandled while the publish (whose
        // acknowledgement waits for the commit) is still awaited
        const pushed = new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 5000);
          waiting = (p) => p.task.device_id === deviceId && (clearTimeout(timer), resolve(true));
        });
        const t0 = performance.now();
        await a.client!.publishAsync(topic, JSON.stringify({ tank: { fuel: { level: 10 } } }), { qos: 1 });
        published++;
        if (await pushed) ms.push(performance.now() - t0);
        else missed++;
        // crossings spread over the phase, not back to back
        await new Promise((r) => setTimeout(r, 100));
      }
      return ms;
    },
    stop: () => void (stopped = true),
    points: () => published,
    missed: () => missed,
    close() {
      a.client!.end(true);
      socket.close();
    },
  };
}
