// What 1,000 active rules add to ingest on the event loop, measured as CPU (a figure that holds on a busy machine,
// where wall-clock rates and latencies do not): a real gateway (startGateway: pipeline, writer thread, rules domain,
// tasks, outbox, bus), 5,000 device rows, the ingest bench's 3-point messages driven by direct ingest() calls, and
// the ingest bench's rules (rules-load.ts: one device in five watched, one rule in twenty firing on its crossings).
// Phases alternate without rules / with rules (the rules switched off and on through the rule service), so both
// halves see the same table sizes and machine. Figures: main-thread CPU µs per message in each, their difference (the
// rules' cost per message), tasks and firings. `npm run bench -- rules_cpu`, knobs RULES_CPU_MESSAGES (100,000 per
// phase), RULES_CPU_ROUNDS (2).
import { performance } from 'node:perf_hooks';
import type { MqttIdentity } from '../../src/platform/mqtt/types.js';
import { devices as devicesTable } from '../../src/modules/devices/devices.table.js';
import { startGateway } from '../../test/harness.js';
import { tenantWithApp } from '../../test/fixtures.js';
import { t } from '../rules.bench.js';
import { mainThreadCpuUs } from './micro.js';
import type { Bench } from '../run.js';

const DEVICES = 5000;
const RULES = 1000;
const FIRING_EVERY = 20;

export async function rulesCpu(opts: { messages?: number; rounds?: number } = {}) {
  const messages = opts.messages ?? Number(process.env.RULES_CPU_MESSAGES ?? 100_000);
  const rounds = opts.rounds ?? Number(process.env.RULES_CPU_ROUNDS ?? 2);
  const gw = await startGateway();
  try {
    const { app } = gw;
    const owner = await tenantWithApp(gw.url);
    const now = Date.now();
    const rows = Array.from({ length: DEVICES }, (_, i) => ({
      appId: owner.appId,
      category: 1,
      categoryText: 'Dummy',
      deviceType: 'DUMMY',
      name: `Bench ${i}`,
      serialNumber: `BENCH-${i}`,
      createdAt: now,
      updatedAt: now,
    }));
    const ids: number[] = app.db!.db.transaction((tx) =>
      rows.map((r) => tx.insert(devicesTable).values(r).returning({ id: devicesTable.id }).get().id),
    );
    const contexts = new Map<string, { deviceId: number; appId: number; category: number }>();
    const identities: MqttIdentity[] = [];
    const topics: string[] = [];
    for (let i = 0; i < DEVICES; i++) {
      identities.push({ key: `bench:${i}`, appId: owner.appId });
      contexts.set(`bench:${i}`, { deviceId: ids[i]!, appId: owner.appId, category: 1 });
      topics.push(`d/${ids[i]}/data`);
    }
    app.telemetry.useResolver({ resolveDevice: (id) => contexts.get(id.key) ?? null });
    // the fleet's payloads (fleet.c): temperature 20.0..29.9, humidity 40..46
    const payloads = Array.from({ length: 700 }, (_, k) =>
      Buffer.from(
        `{"env":{"data":{"temperature":${(20 + (k % 100) / 10).toFixed(1)},"humidity":${40 + (k % 7)}}},"bench":{"data":{"sent_at":${Date.now()}}}}`,
      ),
    );
    for (let i = 0; i < DEVICES; i++) app.telemetry.ingest(identities[i]!, topics[i]!, payloads[0]!, 0);
    await app.telemetry.flush();

    const ruleIds: number[] = [];
    for (let i = 0; i < RULES; i++) {
      const device = ids[(i * 5) % DEVICES]!;
      const trigger =
        i % FIRING_EVERY === 0
          ? [
              t('DEVICE_ID', '==', device),
              t('SENSOR', '==', 'env'),
              t('CONFIG', '==', 'data'),
              t('PARAM', '==', 'humidity'),
              t('VALUE', '>=', 46),
            ]
          : [
              t('DEVICE_ID', '==', device),
              t('SENSOR', '==', 'env'),
              t('CONFIG', '==', 'data'),
              t('PARAM', '==', 'temperature'),
              t('VALUE', '>', 1000),
            ];
      ruleIds.push(
        (
          await app.rules.rules.add(owner.appId, {
            name: `Bench ${i}`,
            category: 11,
            description: '',
            condition: { triggers: trigger },
            action: { new: [], response: [] },
            details: {},
          })
        ).id,
      );
    }
    const setRules = async (active: boolean) => {
      for (const id of ruleIds) await app.rules.rules.activate(owner.appId, id, active);
    };

    let sent = 0;
    async function phase() {
      const m0 = app.telemetry.metrics() as Record<string, number>;
      const main0 = mainThreadCpuUs();
      const elu0 = performance.eventLoopUtilization();
      const t0 = performance.now();
      for (let n = 0; n < messages; n++, sent++) {
        const i = sent % DEVICES;
        // each device walks through the payloads (humidity 46 one message in seven: the firing rules cross often)
        app.telemetry.ingest(identities[i]!, topics[i]!, payloads[(Math.floor(sent / DEVICES) + i) % 700]!, 0);
        if (n % 2000 === 1999) {
          await new Promise((r) => setImmediate(r));
          for (let w = 0; w < 5000 && (app.telemetry.metrics() as Record<string, number>).queued_points > 50_000; w++)
            await new Promise((r) => setTimeout(r, 1));
        }
      }
      await app.telemetry.flush();
      // the bus delivers task pushes on the next turns
      await new Promise((r) => setTimeout(r, 20));
      const m1 = app.telemetry.metrics() as Record<string, number>;
      return {
        main_us_per_message: (mainThreadCpuUs() - main0) / messages,
        elu: performance.eventLoopUtilization(elu0).utilization,
        wall_points_per_s: (messages * 3) / ((performance.now() - t0) / 1000),
        stored: m1.stored_points - m0.stored_points,
      };
    }

    const off: number[] = [];
    const on: number[] = [];
    const elu: { off: number[]; on: number[] } = { off: [], on: [] };
    await phase(); // warm-up without rules (JIT, the writer's first rounds)
    await setRules(false);
    for (let r = 0; r < rounds; r++) {
      const a = await phase();
      off.push(a.main_us_per_message);
      elu.off.push(a.elu);
      await setRules(true);
      const fired0 = app.rules.engine.metrics().fired;
      const b = await phase();
      on.push(b.main_us_per_message);
      elu.on.push(b.elu);
      process.stderr.write(
        `rules_cpu round ${r}: without ${a.main_us_per_message.toFixed(1)} µs/message, with ${b.main_us_per_message.toFixed(1)} µs/message, firings ${app.rules.engine.metrics().fired - fired0}\n`,
      );
      await setRules(false);
    }
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const r1 = (x: number) => Math.round(x * 10) / 10;
    const engine = app.rules.engine.metrics();
    return {
      messages_per_phase: messages,
      rules: RULES,
      devices: DEVICES,
      main_thread_us_per_message_without_rules: off.map(r1).join(' / '),
      main_thread_us_per_message_with_rules: on.map(r1).join(' / '),
      rules_main_thread_us_per_message: r1(mean(on) - mean(off)),
      event_loop_utilization_without_rules: elu.off.map((x) => x.toFixed(2)).join(' / '),
      event_loop_utilization_with_rules: elu.on.map((x) => x.toFixed(2)).join(' / '),
      firings: engine.fired,
      engine_writes: engine.writes,
      engine_write_mean_ms: Math.round((engine.write_ms / Math.max(1, engine.writes)) * 100) / 100,
      engine_max_write_ms: engine.max_write_ms,
      ...Object.fromEntries(Object.entries(app.rules.writes?.metrics() ?? {}).map(([k, v]) => [`write_queue_${k}`, v])),
      tasks: app.db!.sqlite.prepare('SELECT count(*) FROM tasks').pluck().get() as number,
      note: 'in-process ingest() calls (no broker), CPU of the event loop only; the machine is shared',
    };
  } finally {
    await gw.stop();
  }
}

export const rulesCpuBench: Bench = { name: 'rules_cpu', run: () => rulesCpu() };

if (process.argv[1]?.endsWith('rules-cpu.ts'))
  rulesCpu().then((r) => (console.log(JSON.stringify(r, null, 2)), process.exit(0)));
