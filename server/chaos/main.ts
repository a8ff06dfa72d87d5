// `npm run chaos`: the chaos run at its default size (500 devices, 3 gateways, 60 s of QoS 1 through HAProxy), one
// JSON object of figures on stdout, the progress on stderr; exit code 1 when a figure that must hold does not.
// CHAOS_DEVICES, CHAOS_GATEWAYS, CHAOS_SECONDS, CHAOS_INTERVAL_MS, CHAOS_WINDOW change the size; CHAOS_DUMP=<prefix>
// keeps each gateway's output of a failed run in <prefix>-<i>.log (a killed one's in <prefix>-<i>-killed-<k>.log).
import { runChaos } from './run.js';

const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);

const figures = await runChaos({
  devices: num('CHAOS_DEVICES'),
  gateways: num('CHAOS_GATEWAYS'),
  seconds: num('CHAOS_SECONDS'),
  intervalMs: num('CHAOS_INTERVAL_MS'),
  window: num('CHAOS_WINDOW'),
});
process.stdout.write(JSON.stringify(figures) + '\n');
process.exit(figures.ok ? 0 : 1);
