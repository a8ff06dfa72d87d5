// The whole telemetry pipeline on PostgreSQL (openTelemetryPipeline({ postgres })): device messages → resolver → family
// adapter → series → writer → PostgreSQL executor → acknowledgement, on a loopback cluster of its own with durable
// commits (fsync on, synchronous_commit on). Devices send QoS 1 messages of `--points` numbers each, as fast as the
// acknowledgements let them (at most `--inflight` points unacknowledged, as the broker's windows bound a fleet). The
// series are created by the first round (the creation path included), then the rate is measured for `--seconds`.
// One JSON line: points/s acknowledged, batches, mean and max ms per batch (the writer's own stats), ack latency.
//
//   node --import tsx server/bench/ingest/pg-pipeline.ts [--seconds 20] [--devices 1500] [--points 10]
//        [--inflight 60000]
//
// Needs PostgreSQL installed (apt-get install postgresql); run as root or as a user that can run initdb.
import { parseArgs } from 'node:util';
import { openPostgres } from '../../src/platform/db/postgres.js';
import { findUp } from '../../src/platform/db/sqlite.js';
import { startPostgres } from '../../src/platform/db/testing/postgres.js';
import { createLogger } from '../../src/platform/log.js';
import type { MqttIdentity } from '../../src/platform/mqtt/types.js';
import type { DeviceContext, DeviceResolver } from '../../src/modules/devices/families/index.js';
import { openTelemetryPipeline } from '../../src/modules/telemetry/ingest/pipeline.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    devices: { type: 'string', default: '1500' },
    points: { type: 'string', default: '10' },
    inflight: { type: 'string', default: '60000' },
  },
});
const seconds = Number(args.seconds);
const devices = Number(args.devices);
const perMessage = Number(args.points);
const maxInflight = Number(args.inflight);

const log = createLogger('warn');
const server = await startPostgres();
const pg = await openPostgres({
  url: await server.createDatabase(),
  migrationsFolder: findUp('drizzle-pg', import.meta.url),
});
const resolver: DeviceResolver = {
  resolveDevice: (identity: MqttIdentity): DeviceContext => ({
    deviceId: Number(identity.key.slice(7)),
    appId: 1,
    category: 8,
  }),
};
const pipeline = await openTelemetryPipeline({ postgres: pg.pool, log, resolver });
const ids = Array.from({ length: devices }, (_, d) => ({ key: `device:${d + 1}` }));
const payload = (i: number) => {
  const data: Record<string, number> = {};
  for (let k = 0; k < perMessage; k++) data[`p${k}`] = (i * 7 + k) % 1000;
  return Buffer.from(JSON.stringify({ s: { data } }));
};

let inflight = 0;
let acked = 0;
let refused = 0;
const latencies: number[] = [];
function send(d: number, i: number) {
  const sent = performance.now();
  inflight += perMessage;
  pipeline.ingest(ids[d]!, `d/${d + 1}/data`, payload(i), 1, () => (ok = true) => {
    inflight -= perMessage;
    if (!ok) return void refused++;
    acked += perMessage;
    if (latencies.length < 200_000) latencies.push(performance.now() - sent);
  });
}

// the first round creates every series (devices × points)
const createStart = performance.now();
for (let d = 0; d < devices; d++) send(d, 0);
await pipeline.flush();
const createMs = performance.now() - createStart;

const before = { ...(pipeline.metrics() as Record<string, number>) };
acked = 0;
latencies.length = 0;
const start = performance.now();
const end = start + seconds * 1000;
let i = 1;
while (performance.now() < end) {
  // a turn of devices while the window has room, then let the writer and the acknowledgements run
  for (let d = 0; d < devices && inflight + perMessage <= maxInflight; d++) send(d, i);
  i++;
  await new Promise((r) => setImmediate(r));
}
const elapsed = (performance.now() - start) / 1000;
const after = pipeline.metrics() as Record<string, number>;
await pipeline.close();
await pg.close();
await server.destroy();

latencies.sort((a, b) => a - b);
const q = (p: number) => Math.round((latencies[Math.floor(p * (latencies.length - 1))] ?? 0) * 10) / 10;
const batches = after.batches! - before.batches!;
console.log(
  JSON.stringify({
    bench: 'pg-pipeline',
    devices,
    points_per_message: perMessage,
    series: devices * perMessage,
    series_create_ms: Math.round(createMs),
    seconds: Math.round(elapsed * 10) / 10,
    points_per_s: Math.round(acked / elapsed),
    batches,
    points_per_batch: Math.round((after.stored_points! - before.stored_points!) / Math.max(1, batches)),
    batch_ms_mean: Math.round(((after.total_batch_ms! - before.total_batch_ms!) / Math.max(1, batches)) * 10) / 10,
    batch_ms_max: Math.round(after.max_batch_ms! * 10) / 10,
    ack_ms_p50: q(0.5),
    ack_ms_p99: q(0.99),
    refused,
  }),
);
