// Entry point: read the configuration, build the app, listen, and shut down gracefully on SIGINT/SIGTERM.
import path from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './platform/config.js';
import { checkDataDir } from './platform/db/data-dir.js';
import { isStorageFault } from './platform/db/storage-fault.js';
import { redactedUrl } from './platform/db/engine.js';
import { DEMO, seedDemo } from './modules/demo/demo.seed.js';
import { seedDemoRules } from './modules/demo/demo.rules.js';

/** what the gateway tells the process that started it with an IPC channel, once it listens */
export interface GatewayListening {
  sentra: 'listening';
  port: number;
  mqttPort: number;
  /** DATA_DIR, absolute: the demo fleet keeps its devices' tokens there */
  dataDir: string;
}

/** PostgreSQL at start: unreachable, the sign-in refused (28xxx), the database missing (3D000), or not allowed (42501) */
function isPostgresStartFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    isStorageFault(err) ||
    (typeof code === 'string' &&
      (/^(28|3D)/.test(code) || code === '42501' || /^E(CONNREFUSED|NOTFOUND|AI_AGAIN)/.test(code)))
  );
}

async function main() {
  let config;
  try {
    config = loadConfig(process.env, { DEMO: process.env.SENTRA_DEFAULT_DEMO === 'on' ? 'on' : 'off' });
    // one line naming DATA_DIR and the reason, before anything opens it (docs/decisions/ingest.md)
    if (checkDataDir(config.DATA_DIR).created) console.log(`DATA_DIR ${JSON.stringify(config.DATA_DIR)} created`);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config, { commandTimeoutMs: config.COMMAND_TIMEOUT_MS });
  } catch (err) {
    // a start-up failure of the environment (BUS=nats without a reachable NATS_URL): one line naming the variable
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    // the storage failed between the check and the database's opening (or beneath SQLite only), or PostgreSQL cannot
    // be reached or refuses the sign-in: still one line, naming the variable (never the password)
    if (!isStorageFault(err) && !(config.DATABASE_URL && isPostgresStartFailure(err))) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    console.error(
      config.DATABASE_URL
        ? `DATABASE_URL ${redactedUrl(config.DATABASE_URL)} cannot be used: ${reason}`
        : `DATA_DIR ${JSON.stringify(config.DATA_DIR)} cannot be used: ${reason}`,
    );
    process.exit(2);
  }
  // the signal handlers come before anything announces this process: a SIGTERM sent as soon as the launcher (or a
  // test) hears 'listening' must reach them, not the default action that ends the process without closing it
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // started by the launcher: if it goes away without a signal reaching here (killed), so does the gateway, which
  // would otherwise hold its ports with nobody to stop it
  if (process.send) process.on('disconnect', () => void stop('launcher gone'));
  const demo = config.DEMO === 'on' ? await seedDemo(app.store) : undefined;
  // the demo's ready rules (voltage, fuel, offline): tasks appear within minutes of the demo fleet starting
  if (demo?.appId) await seedDemoRules(app.rules.rules, demo.appId);
  const { port, url, mqttPort, livenessPort } = await app.listen();
  // started by `npm start` (scripts/start.mjs): tell it the ports actually bound (PORT=0 picks free ones), which its demo
  // fleet then targets; the channel must not keep this process alive
  if (process.send) {
    process.send({
      sentra: 'listening',
      port,
      mqttPort,
      dataDir: path.resolve(config.DATA_DIR),
    } satisfies GatewayListening);
    process.channel?.unref();
  }
  app.log.info(`Sentra console at ${url}/admin/login`);
  app.log.info(
    `MQTT broker on ${app.config.HOST}:${mqttPort} (TCP; ${app.broker.threads} thread${app.broker.threads > 1 ? 's' : ''}, ${app.broker.nativeReads ? 'native reader' : "Node's reads"}) and ${url.replace(/^http/, 'ws')}/mqtt (WebSocket); bus: ${app.bus.kind}`,
  );
  if (livenessPort !== undefined)
    app.log.info(
      `liveness for the load balancer on ${app.config.HOST}:${livenessPort} (GET /health, off the event loop)`,
    );
  if (demo) {
    app.log.info(
      `Demo sign-in: tenant "${DEMO.username}" / "${DEMO.password}"${demo.created ? ' (created now)' : ''}; application ${url}/admin/${DEMO.domain}`,
    );
  }
}

void main();
