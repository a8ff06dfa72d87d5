// The live demo of `npm start`: waits for the gateway, runs the demo fleet (registering it on first run, reusing it
// after), installs the ready-made dashboards the application lacks, and keeps the fleet publishing until stopped.
import { DEFAULTS } from './fleet/run.js';
import { runFleet } from './fleet/run.js';
import { demoDashboards, demoFleetOptions, installDemoDashboards, tagDemoFleet } from './demo.js';

const url = process.env.SENTRA_URL ?? DEFAULTS.url;
const mqtt = process.env.SENTRA_MQTT ?? DEFAULTS.mqtt;
const log = (msg: string) => console.log(`${new Date().toISOString()} INFO [demo-fleet] ${msg}`);

async function gatewayUp(deadlineMs: number): Promise<boolean> {
  while (Date.now() < deadlineMs) {
    try {
      if ((await fetch(`${url}/service/web/openapi.json`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

async function main() {
  if (!(await gatewayUp(Date.now() + 120_000))) {
    console.error(`demo fleet: no gateway at ${url} within 120 s`);
    process.exit(1);
  }
  const options = demoFleetOptions({ url, mqtt, tokensFile: process.env.SENTRA_DEMO_TOKENS });
  log(`starting ${options.devices} simulated devices against ${url} (${mqtt})`);
  const fleet = await runFleet(options);
  const gateway = { url, username: options.username, password: options.password, domain: options.domain };
  const tagged = await tagDemoFleet(gateway, fleet.devices);
  const dashboards = await installDemoDashboards(gateway, demoDashboards(fleet.devices, options.seed));
  log(
    `${fleet.devices.length} devices live (${tagged} tagged by role); dashboards added: ${dashboards.added.join(', ') || 'none'}; kept: ${dashboards.kept.length}`,
  );
  // first start: the past week is replayed behind the live fleet (each device goes live once its past is sent), once
  // the REST work above is done (a gateway busy ingesting answers REST slowly)
  fleet.replayHistory();
  void fleet.history.then(
    (h) =>
      h.readings > 0 &&
      log(
        `history: ${h.readings} readings sent in ${(h.ms / 1000).toFixed(1)} s (each device's past from its newest stored reading, at most ${options.historyMs! / 86_400_000} days)`,
      ),
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await fleet.stop().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // the gateway's launcher closes our stdin channel when it goes away: never outlive it
  process.on('disconnect', () => void stop());
}

main().catch((err) => {
  console.error('demo fleet failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
