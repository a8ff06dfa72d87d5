// `npm run bench`: runs every benchmark in this folder on this machine and prints one JSON object of figures.
// A benchmark is a module exporting `bench: Bench`; add yours to BENCHES. Benchmarks measure, they never fail a build.
import { httpBench } from './http.bench.js';
import { devicesBench } from './devices.bench.js';
import { ingestBench } from './ingest.bench.js';

export interface Bench {
  name: string;
  /** resolves with named figures (numbers, units in the names: _rps, _ms, _points_per_s, _kb) */
  run(): Promise<Record<string, number | string>>;
}

const BENCHES: Bench[] = [httpBench, devicesBench, ingestBench];

async function main() {
  const only = process.argv.slice(2);
  const figures: Record<string, unknown> = { machine: { cpus: (await import('node:os')).cpus().length, node: process.version }, at: new Date().toISOString() };
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
