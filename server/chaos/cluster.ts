// A deployment on loopback for the chaos run and its test: a PostgreSQL cluster of its own, nats-server, N gateway
// processes (each with its own DATA_DIR, one database, BUS=nats) and HAProxy in front (TCP for MQTT, HTTP and WebSocket
// for the console, health checks that take a dead gateway out within a second), all on free 127.0.0.1 ports; kill -9
// and restart helpers. Never imported by the gateway itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { freePort, startNatsServer, type NatsServer } from '../src/platform/bus/testing/nats-server.js';
import { until } from '../src/platform/testing/until.js';
import { startPostgres, type Postgres } from '../src/platform/db/testing/postgres.js';
import { haproxyBinary, required } from '../src/platform/testing/required.js';
import { spawnGateway, type GatewayProcess } from '../test/gateway-process.kit.js';

export const HAPROXY = haproxyBinary() ?? 'haproxy';

/** whether haproxy is installed (CI fails here when it is not: testing/required.ts) */
export const hasHaproxy = (): boolean => required('haproxy', haproxyBinary() !== null, 'apt-get install haproxy');

export interface ClusterGateway {
  dataDir: string;
  port: number;
  mqttPort: number;
  /** the liveness check HAProxy asks (LIVENESS_PORT) */
  livenessPort: number;
  /** the running process, or null while it is down */
  process: GatewayProcess | null;
}

export interface Cluster {
  pg: Postgres;
  databaseUrl: string;
  nats: NatsServer;
  gateways: ClusterGateway[];
  /** the console through HAProxy (HTTP and socket.io) */
  url: string;
  /** MQTT through HAProxy */
  mqttPort: number;
  /** kill -9 of gateway `i`; resolves once it is gone */
  kill(i: number): Promise<void>;
  /** starts gateway `i` again on its ports and directory; resolves once it listens */
  restart(i: number): Promise<void>;
  /** nats-server stopped and started again on its port */
  restartNats(downMs?: number): Promise<void>;
  /** PostgreSQL restarted (`fast`: sessions ended cleanly) */
  restartPostgres(mode?: 'fast' | 'immediate'): Promise<void>;
  /** gateways that ended without being killed or stopped (a crash: the run's faults must never bring one down), with
   * the end of their output */
  crashed(): Array<{ gateway: number; code: number | null; output: string }>;
  /** the output of each gateway killed so far, in order */
  killed(): Array<{ gateway: number; output: string }>;
  /** resolves once HAProxy routes MQTT to gateway `i` again (its health check passed) */
  routed(i: number, ms?: number): Promise<boolean>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  gateways?: number;
  /** more environment for every gateway */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

function haproxyConfig(o: {
  mqttPort: number;
  httpPort: number;
  statsSocket: string;
  gateways: ClusterGateway[];
}): string {
  // as deploy/haproxy/haproxy.cfg: devices' connections open with a PROXY v2 header; both backends ask each gateway's
  // liveness (answered off its event loop)
  const servers = (kind: 'mqtt' | 'http') =>
    o.gateways
      .map((g, i) =>
        kind === 'mqtt'
          ? `  server gw${i} 127.0.0.1:${g.mqttPort} check port ${g.livenessPort} send-proxy-v2`
          : `  server gw${i} 127.0.0.1:${g.port} check port ${g.livenessPort}`,
      )
      .join('\n');
  return `global
  maxconn 8000
  stats socket ${o.statsSocket} mode 600 level admin

defaults
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  # WebSocket (socket.io) and MQTT connections live long
  timeout tunnel 1h
  timeout http-request 10s
  retries 2
  option redispatch
  # a dead gateway is out after two failed checks 250 ms apart; back after two good ones
  default-server inter 250 fall 2 rise 2 on-marked-down shutdown-sessions

frontend mqtt
  mode tcp
  bind 127.0.0.1:${o.mqttPort}
  default_backend gateways_mqtt

backend gateways_mqtt
  mode tcp
  balance leastconn
  option httpchk
  http-check send meth GET uri /health
  http-check expect status 200
${servers('mqtt')}

frontend console
  mode http
  bind 127.0.0.1:${o.httpPort}
  default_backend gateways_http

backend gateways_http
  mode http
  balance roundrobin
  option http-server-close
  option forwardfor
  option httpchk
  http-check send meth GET uri /health
  http-check expect status 200
${servers('http')}
`;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** asks HAProxy's stats socket for the state of one backend server (UP, DOWN, ...) */
function serverState(socket: string, backend: string, server: string): Promise<string> {
  return new Promise((resolve) => {
    const c = net.connect(socket);
    let out = '';
    c.on('data', (d) => (out += d.toString()));
    c.on('error', () => resolve(''));
    c.on('end', () => {
      for (const line of out.split('\n')) {
        const f = line.split(',');
        if (f[0] === backend && f[1] === server) return resolve(f[17] ?? '');
      }
      resolve('');
    });
    c.write('show stat\n');
  });
}

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const log = opts.log ?? (() => {});
  const n = opts.gateways ?? 3;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-chaos-'));
  const pg = await startPostgres({ fsync: 'off', max_connections: '300' });
  const databaseUrl = await pg.createDatabase();
  let nats = await startNatsServer();
  const sealKey = randomBytes(32).toString('hex');
  const gateways: ClusterGateway[] = [];
  for (let i = 0; i < n; i++) {
    const dataDir = path.join(tmp, `gw${i}`);
    fs.mkdirSync(dataDir);
    gateways.push({
      dataDir,
      port: await freePort(),
      mqttPort: await freePort(),
      livenessPort: await freePort(),
      process: null,
    });
  }
  const envOf = (g: ClusterGateway) => ({
    PORT: String(g.port),
    MQTT_PORT: String(g.mqttPort),
    LIVENESS_PORT: String(g.livenessPort),
    DATABASE_URL: databaseUrl,
    BUS: 'nats',
    NATS_URL: nats.url,
    // one sealing key for the deployment: a secret sealed by one gateway is opened by the others
    SEAL_KEY: sealKey,
    DATABASE_POOL_SIZE: '8',
    // HAProxy (on loopback) names each client: X-Forwarded-For over HTTP, a PROXY v2 header on MQTT's connections
    TRUST_PROXY: '127.0.0.1',
    MQTT_PROXY_PROTOCOL: 'on',
    // each gateway's rule firings, skipped points and states read back, by device: a crossing out of step is traced
    RULES_TRACE: 'on',
    ...opts.env,
  });
  const crashes: Array<{ gateway: number; code: number | null; output: string }> = [];
  /** what each killed gateway wrote before its kill (a failed run's evidence) */
  const killed: Array<{ gateway: number; output: string }> = [];
  const start = async (i: number) => {
    const g = gateways[i]!;
    const p = (g.process = await spawnGateway(g.dataDir, envOf(g), 120_000));
    // kill and stop take the process from its gateway first: an end while it is still there is a crash
    void p.exited.then((code) => {
      if (g.process === p) crashes.push({ gateway: i, code, output: p.output().slice(-4000) });
    });
    log(`gateway ${i} listening (http ${g.port}, mqtt ${g.mqttPort})`);
  };
  // the first one migrates the database; the others follow together
  let haproxy: ChildProcess | undefined;
  try {
    await start(0);
    await Promise.all(gateways.slice(1).map((_, k) => start(k + 1)));

    const mqttPort = await freePort();
    const httpPort = await freePort();
    const statsSocket = path.join(tmp, 'haproxy.sock');
    const cfg = path.join(tmp, 'haproxy.cfg');
    fs.writeFileSync(cfg, haproxyConfig({ mqttPort, httpPort, statsSocket, gateways }));
    haproxy = spawn(HAPROXY, ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
    let haproxyOut = '';
    haproxy.stderr!.setEncoding('utf8').on('data', (s: string) => (haproxyOut += s));
    const proxy = haproxy;
    for (let k = 0; k < 100 && !(await canConnect(mqttPort)); k++) {
      if (proxy.exitCode !== null) throw new Error(`haproxy exited: ${haproxyOut}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    const routed = (i: number, ms = 10_000) =>
      until(async () => (await serverState(statsSocket, 'gateways_mqtt', `gw${i}`)) === 'UP', ms, 50);
    for (let i = 0; i < n; i++) if (!(await routed(i))) throw new Error(`haproxy does not route to gateway ${i}`);

    return {
      pg,
      databaseUrl,
      get nats() {
        return nats;
      },
      gateways,
      url: `http://127.0.0.1:${httpPort}`,
      mqttPort,
      async kill(i) {
        const p = gateways[i]!.process;
        gateways[i]!.process = null;
        if (!p) return;
        p.child.kill('SIGKILL');
        await p.exited;
        killed.push({ gateway: i, output: p.output() });
      },
      killed: () => [...killed],
      restart: start,
      async restartNats(downMs = 500) {
        await nats.stop();
        await new Promise((r) => setTimeout(r, downMs));
        nats = await startNatsServer(nats.port);
      },
      async restartPostgres(mode = 'fast') {
        await pg.restart(mode);
      },
      crashed: () => [...crashes],
      routed,
      async stop() {
        for (const g of gateways) {
          const p = g.process;
          g.process = null;
          if (p && p.child.exitCode === null && p.child.signalCode === null) {
            p.child.kill('SIGTERM');
            const killer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
            await p.exited;
            clearTimeout(killer);
          }
        }
        proxy.kill('SIGKILL');
        await nats.stop();
        await pg.destroy();
        fs.rmSync(tmp, { recursive: true, force: true });
        for (const g of gateways) fs.rmSync(`${g.dataDir}.seal.key`, { force: true });
      },
    };
  } catch (err) {
    for (const g of gateways) g.process?.child.kill('SIGKILL');
    haproxy?.kill('SIGKILL');
    await nats.stop();
    await pg.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
