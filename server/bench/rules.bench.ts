// The rule engine alone, on one core (docs/conventions.md "Performance targets": ≥ 200,000 trigger checks/s): 1,000
// active rules over 5,000 devices of one application, fed committed messages of 3 points each straight into the engine
// (no HTTP, MQTT or database: the state store is in memory, a firing is only counted). Figures:
//   checks_per_s        value tests evaluated per second (a rule's VALUE entries against a watched point)
//   watched_points_per_s / messages_per_s   the stream the checks came from
//   unwatched_points_per_s                  points of a series no rule names (index lookups only), with 1,000 rules
//   unwatched_points_per_s_10000_rules      the same stream against 10,000 rules: the cost of an unwatched point
//                                           must not depend on the number of rules
import type { TriggerEntry } from '@sentra/contracts';
import { createRuleEngine, type EngineStateStore, type PersistedState } from '../src/modules/rules/engine.js';
import type { EnginePoint } from '../src/modules/rules/compile.js';
import type { Bench } from './run.js';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const RULES = 1000;
export const DEVICES = 5000;
const SECONDS = Number(process.env.RULES_BENCH_SECONDS ?? 3);

function memoryStore(): EngineStateStore {
  const m = new Map<string, PersistedState>();
  return {
    all: async () => [...m.values()],
    ofDevice: async () => [],
    write: async (s) => void m.set(`${s.ruleId}:${s.deviceId}`, s),
    remove: async (r, d) => void m.delete(`${r}:${d}`),
    removeRule: async () => undefined,
    removeDevice: async () => undefined,
  };
}

export const t = (
  query: TriggerEntry['field']['query'],
  op: TriggerEntry['op'],
  value: number | string,
): TriggerEntry => ({ node_type: 'INCOMING_DEVICE_DATA', field: { query }, op, value });

function engineWith(rules: number) {
  let fired = 0;
  const engine = createRuleEngine({ store: memoryStore(), onFire: async () => void fired++ });
  for (let i = 0; i < rules; i++) {
    // 1,000 rules: each watches one device's fuel level with a band of three tests (the 5,000 devices: one in five
    // has a rule); every tenth rule watches every device's temperature instead (app-wide rules)
    const appWide = i % 10 === 0;
    const triggers = appWide
      ? [
          t('SENSOR', '==', 'env'),
          t('CONFIG', '==', 'data'),
          t('PARAM', '==', `temperature_${i % 7}`),
          t('VALUE', '>', 30),
          t('VALUE', '<', 80),
          t('VALUE', '>=', 30.5),
        ]
      : [
          t('DEVICE_ID', '==', (i * 5) % DEVICES),
          t('SENSOR', '==', 'tank'),
          t('CONFIG', '==', 'fuel'),
          t('PARAM', '==', 'level'),
          t('VALUE', '>', 0),
          t('VALUE', '<', 20),
          t('VALUE', '<=', 19.5),
        ];
    engine.upsert({
      id: i + 1,
      appId: 1,
      category: 11,
      name: `r${i}`,
      key: null,
      description: '',
      condition: { triggers },
      action: { new: [], response: [] },
    });
  }
  return { engine, fired: () => fired };
}

/** Runs `batch` until SECONDS passed; answers the number of batches per second. */
function timed(batch: (i: number) => void): number {
  const end = performance.now() + SECONDS * 1000;
  let n = 0;
  const start = performance.now();
  while (performance.now() < end) {
    for (let k = 0; k < 1000; k++) batch(n++);
  }
  return n / ((performance.now() - start) / 1000);
}

export const rulesBench: Bench = {
  name: 'rules',
  async run() {
    const { engine, fired } = engineWith(RULES);
    // watched messages: a device with a rule, its level moving through the band (transitions), a temperature point
    // that the app-wide rules watch, and one point nobody watches
    const watched = (round: number): EnginePoint[] => [
      // each device's level enters the band in 5 rounds of 100 (transitions are rare, as in a real fleet)
      { sensor: 'tank', config: 'fuel', param: 'level', value: round % 100 < 5 ? 10 : 50, ts: round },
      { sensor: 'env', config: 'data', param: `temperature_${round % 7}`, value: 20 + (round % 50), ts: round },
      { sensor: 'pump', config: 'data', param: 'flow', value: round % 100, ts: round },
    ];
    const watchedMessages = Array.from({ length: 4096 }, (_, r) => watched(r));
    const checksBefore = engine.metrics().checks;
    // message i: device (i mod 1,000) × 5, which has a rule; its round is i / 1,000
    const perS = timed((i) =>
      engine.telemetry({
        appId: 1,
        deviceId: ((i % 1000) * 5) % DEVICES,
        points: watchedMessages[Math.floor(i / 1000) & 4095]!,
      }),
    );
    const checks = engine.metrics().checks - checksBefore;
    const checksPerS = checks / (engine.metrics().messages / perS);

    // points no rule names, against 1,000 and 10,000 rules: the cost must not grow with the number of rules
    const unwatched: EnginePoint[] = [
      { sensor: 'pm', config: 'meter', param: 'power', value: 1, ts: 1 },
      { sensor: 'pm', config: 'meter', param: 'voltage', value: 220, ts: 1 },
      { sensor: 'pm', config: 'meter', param: 'energy', value: 5, ts: 1 },
    ];
    const unwatchedPerS = timed((i) => engine.telemetry({ appId: 1, deviceId: i % DEVICES, points: unwatched }));
    const big = engineWith(RULES * 10).engine;
    const unwatched10kPerS = timed((i) => big.telemetry({ appId: 1, deviceId: i % DEVICES, points: unwatched }));
    engine.close();
    big.close();
    return {
      rules: RULES,
      devices: DEVICES,
      checks_per_s: Math.round(checksPerS),
      messages_per_s: Math.round(perS),
      watched_points_per_s: Math.round(perS * 3),
      firings: fired(),
      unwatched_points_per_s: Math.round(unwatchedPerS * 3),
      unwatched_points_per_s_10000_rules: Math.round(unwatched10kPerS * 3),
      ...(await pushLatency()),
      note: 'one core, in process, shared machine: figures vary with the load average',
    };
  },
};

/**
 * The gateway half (rules-push.ts) runs in its own process: a gateway started beside the other benchmarks' modules
 * in this process had its HTTP connections reset (not investigated; the child is also closer to a real deployment).
 */
function pushLatency(): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./rules-push.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => (child.kill(), reject(new Error('rules-push did not answer in 300 s'))), 300_000);
    child.once('message', (m: { ok: boolean; figures?: Record<string, number>; error?: string }) => {
      clearTimeout(timer);
      if (m.ok) resolve(m.figures!);
      else reject(new Error(m.error));
    });
    child.once('exit', (code) => code && (clearTimeout(timer), reject(new Error(`rules-push exited ${code}`))));
  });
}
