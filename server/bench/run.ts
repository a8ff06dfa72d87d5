// `npm run bench`: runs every benchmark in this folder on this machine and prints one JSON object of figures.
// A benchmark is a module exporting `bench: Bench`; add yours to BENCHES. Benchmarks measure, they never fail a build.
import { httpBench } from './http.bench.js';
import { devicesBench } from './devices.bench.js';
import { ingestBench } from './ingest.bench.js';
import { ingestCpuBench } from './ingest/micro.js';
import { cardsBench } from './cards.bench.js';
import { rulesBench } from './rules.bench.js';
import { rulesCpuBench } from './ingest/rules-cpu.js';
import { brokerFloorBench } from './ingest/floor.js';
import { retainedBench } from './retained.bench.js';
import { hostSpeed } from './host-speed.js';

export interface Bench {
  name: string;
  /** resolves with named figures (numbers, units in the names: _rps, _ms, _points_per_s, _kb) */
  run(): Promise<Record<string, number | string>>;
}

const BENCHES: Bench[] = [
  httpBench,
  devicesBench,
  ingestCpuBench,
  ingestBench,
  brokerFloorBench,
  cardsBench,
  rulesBench,
  rulesCpuBench,
  retainedBench,
];

async function main() {
  const only = process.argv.slice(2);
  const os = await import('node:os');
  // figures taken on a busy machine mean little: the load average is part of the report
  const figures: Record<string, unknown> = {
    machine: {
      cpus: os.cpus().length,
      node: process.version,
      load_average_at_start: os.loadavg().map((l) => Math.round(l * 10) / 10),
      // the host's speed now, the same work every run (host-speed.ts): compare these before comparing figures
      speed: await hostSpeed(),
    },
    at: new Date().toISOString(),
  };
  for (const b of BENCHES) {
    if (only.length && !only.includes(b.name)) continue;
    const started = Date.now();
    try {
      figures[b.name] = { ...(await b.run()), seconds: Math.round((Date.now() - started) / 100) / 10 };
    } catch (err) {
      figures[b.name] = { error: String(err) };
    }
    process.stderr.write(`bench ${b.name} done\n`);
  }
  console.log(JSON.stringify(figures, null, 2));
  process.exit(0);
}

void main();
