// `npm run sim -- --devices N --rate R --profile <name|mix> --duration S --seed X`: runs the simulated fleet against a
// running gateway. Progress on stderr (a line rewritten in place on a terminal, else a log line every --progress
// seconds), one JSON summary on stdout at the end.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { deviceFamilies } from '@sentra/contracts';
import { PROFILE_NAMES } from './profiles/index.js';
import { createFleet, DEFAULTS } from './fleet/run.js';
import { DEFAULT_LOG_EVERY_S, startProgress } from './progress.js';

const USAGE = `npm run sim -- [options]
  --devices N        devices to simulate (default ${DEFAULTS.devices}, at most 20000)
  --rate R           messages per second per device (default ${DEFAULTS.rate})
  --profile P        ${PROFILE_NAMES.join(' | ')} | mix (default mix)
  --family F         ${deviceFamilies.map((f) => f.key).join(' | ')} | mix (default mix)
  --duration S       seconds, 0 = until Ctrl-C (default 0)
  --seed X           same seed, same fleet and same values (default ${DEFAULTS.seed})
  --faults [P]       malformed frames with probability P per message (default 0.01 when given), offline spells
  --url URL          gateway base URL (default ${DEFAULTS.url})
  --mqtt URL         broker (default ${DEFAULTS.mqtt}); --ws uses MQTT over WebSocket at <url>/mqtt
  --username --password   tenant sign-in (default the demo tenant ${DEFAULTS.username}/${DEFAULTS.password})
  --domain D         application domain, created when missing (default ${DEFAULTS.domain})
  --ramp N           new connections per second (default ${DEFAULTS.ramp})
  --speed X          simulated time per real time (default 1; 60 = an hour of sales and laundry cycles a minute)
  --progress S       when stderr is not a terminal: a progress line every S seconds (default ${DEFAULT_LOG_EVERY_S}, 0 = none)`;

const num = (min: number, max: number) => z.coerce.number().min(min).max(max);
const Args = z.object({
  devices: num(1, 20_000).int().default(DEFAULTS.devices),
  rate: num(0.001, 100).default(DEFAULTS.rate),
  profile: z.enum([...PROFILE_NAMES, 'mix']).default('mix'),
  family: z.enum([...(deviceFamilies.map((f) => f.key) as [string, ...string[]]), 'mix']).default('mix'),
  duration: num(0, 7 * 86_400).default(0),
  seed: z.string().min(1).max(64).default(String(DEFAULTS.seed)),
  faults: z.union([z.literal(true).transform(() => 0.01), num(0, 0.5)]).default(0),
  url: z.url({ protocol: /^https?$/ }).default(DEFAULTS.url),
  mqtt: z.url({ protocol: /^(mqtt|mqtts|ws|wss)$/ }).optional(),
  ws: z.boolean().default(false),
  username: z.string().min(1).default(DEFAULTS.username),
  password: z.string().min(1).default(DEFAULTS.password),
  domain: z.string().min(1).max(64).default(DEFAULTS.domain),
  ramp: num(1, 5000).default(DEFAULTS.ramp),
  concurrency: num(1, 64).int().default(DEFAULTS.concurrency),
  speed: num(0.01, 3600).default(1),
  progress: num(0, 86_400).default(DEFAULT_LOG_EVERY_S),
  help: z.boolean().default(false),
});

function parse(argv: string[]) {
  // `--faults` may stand alone or take a value
  const i = argv.indexOf('--faults');
  if (i >= 0 && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--')))
    argv = [...argv.slice(0, i + 1), 'true', ...argv.slice(i + 1)];
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      devices: { type: 'string' },
      rate: { type: 'string' },
      profile: { type: 'string' },
      family: { type: 'string' },
      duration: { type: 'string' },
      seed: { type: 'string' },
      faults: { type: 'string' },
      url: { type: 'string' },
      mqtt: { type: 'string' },
      ws: { type: 'boolean' },
      username: { type: 'string' },
      password: { type: 'string' },
      domain: { type: 'string' },
      ramp: { type: 'string' },
      concurrency: { type: 'string' },
      speed: { type: 'string' },
      progress: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return Args.parse({ ...values, faults: values.faults === 'true' ? true : values.faults });
}

async function main() {
  let args: z.infer<typeof Args>;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    const message =
      err instanceof z.ZodError
        ? err.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n')
        : (err as Error).message;
    console.error(`${message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const mqttUrl = args.mqtt ?? (args.ws ? `${args.url.replace(/^http/, 'ws').replace(/\/$/, '')}/mqtt` : DEFAULTS.mqtt);
  const fleet = createFleet({ ...args, family: args.family as never, mqtt: mqttUrl });
  const progress = startProgress({
    stats: fleet.stats,
    write: (text) => process.stderr.write(text),
    tty: process.stderr.isTTY === true,
    logEverySeconds: args.progress,
  });
  const onSignal = () => void fleet.stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await fleet.start();
  } catch (err) {
    progress.stop();
    await fleet.stop();
    console.error(`sentra sim: ${(err as Error).message}`);
    process.exit(1);
  }
  progress.report();
  const summary = await fleet.done;
  progress.report();
  progress.stop();
  console.log(
    JSON.stringify({ app: fleet.app, options: { ...args, password: undefined, mqtt: mqttUrl }, summary }, null, 2),
  );
  process.exit(summary.registered === 0 ? 1 : 0);
}

void main();
