// The shipped multi-gateway layout (docs/decisions/deployment.md): docker-compose.yml runs two gateways without a
// shared volume and with the same database, bus and secrets behind HAProxy; deploy/haproxy/haproxy.cfg is valid and
// names exactly those gateways and checks each on the liveness port compose gives it; and HAProxy with that file, in
// front of two stand-in gateways on loopback, takes a gateway whose liveness check fails out of the pool within ~2 s
// and cuts the device connections it held; compose
// itself reads both compose files as valid (docker-compose config: no engine needed for that).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/platform/bus/testing/nats-server.js';
import { required } from '../src/platform/testing/required.js';
import { until } from './fixtures.js';

const root = path.resolve(import.meta.dirname, '../..');
const CFG = path.join(root, 'deploy/haproxy/haproxy.cfg');
const HAPROXY = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', 'haproxy'].find(
  (p) => !p.includes('/') || fs.existsSync(p),
)!;
const hasHaproxy = required('haproxy', spawnSync(HAPROXY, ['-v']).status === 0, 'apt-get install haproxy');
// Compose's own reading of the files (no Docker engine is needed to parse, interpolate and check them against its
// schema): Debian's docker-compose (1.29), as `docker compose config` would
const hasCompose = required(
  'docker-compose',
  spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0,
  'apt-get install docker-compose',
);
const composeConfig = (file: string, env: Record<string, string>) =>
  spawnSync('docker-compose', ['-f', file, 'config', '-q'], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });

// js-yaml comes with the OpenAPI tooling; read through a name so no type declarations are needed
const { load } = (await import('js-yaml' as string)) as { load(text: string): unknown };
interface Service {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
}
const composeOf = (file: string) =>
  load(fs.readFileSync(path.join(root, file), 'utf8')) as { services: Record<string, Service> };
const isGateway = (s: Service) => s.build === '.';

describe('docker-compose.yml: two gateways behind HAProxy', () => {
  const { services } = composeOf('docker-compose.yml');
  const gateways = Object.entries(services).filter(([, s]) => isGateway(s));

  it('runs PostgreSQL 15, NATS, two gateways on both and HAProxy publishing 8080 and 1883', () => {
    expect(services.postgres?.image).toBe('postgres:15');
    expect(services.nats?.image).toMatch(/^nats:/);
    expect(gateways.map(([name]) => name)).toEqual(['gateway-1', 'gateway-2']);
    for (const [, s] of gateways) {
      expect(s.environment).toMatchObject({ BUS: 'nats', NATS_URL: 'nats://nats:4222' });
      expect(s.environment?.DATABASE_URL).toMatch(/^postgres:\/\/sentra:.*@postgres:5432\/sentra$/);
      // nobody reaches a gateway but through HAProxy
      expect(s.ports).toBeUndefined();
    }
    expect(services.haproxy?.image).toMatch(/^haproxy:\d/);
    expect(services.haproxy?.ports).toEqual(['8080:8080', '1883:1883']);
    expect(services.haproxy?.volumes).toContain('./deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });

  it('gives each gateway a volume of its own and the very same settings, the sealing key required', () => {
    const sources = gateways.flatMap(([, s]) => (s.volumes ?? []).map((v) => v.split(':')[0]));
    expect(new Set(sources).size).toBe(sources.length);
    const [[, one], [, two]] = gateways as [[string, Service], [string, Service]];
    expect(two.environment).toEqual(one.environment);
    // unset, each gateway would generate a key of its own in its own volume: compose refuses to start instead
    expect(one.environment?.SEAL_KEY).toMatch(/^\$\{SEAL_KEY:\?/);
    expect(one.environment?.SEAL_KEY_FILE).toBeUndefined();
  });

  it("HAProxy's defaults name exactly these gateways, for HTTP and for MQTT", () => {
    const cfg = fs.readFileSync(CFG, 'utf8');
    const named = [...cfg.matchAll(/"\$\{SENTRA_GW\d_(HTTP|MQTT)-([\w-]+):(\d+)\}"/g)].map((m) => `${m[2]}:${m[3]}`);
    const expected = gateways.flatMap(([name]) => [`${name}:8080`, `${name}:1883`]);
    expect(new Set(named)).toEqual(new Set(expected));
    // every server is checked on the liveness port the gateways listen on (off their event loop)
    const servers = [...cfg.matchAll(/^\s*server (gw\d) .* check port "\$\{SENTRA_GW\d_LIVENESS-(\d+)\}"/gm)];
    expect(servers).toHaveLength(4);
    for (const [, s] of gateways) expect(servers.map((m) => m[2])).toEqual(Array(4).fill(s.environment?.LIVENESS_PORT));
  });

  it('docker-compose.single.yml keeps one gateway published directly, with its key on a volume of its own', () => {
    const single = composeOf('docker-compose.single.yml').services;
    const gws = Object.values(single).filter(isGateway);
    expect(gws).toHaveLength(1);
    expect(gws[0]!.ports).toEqual(['8080:8080', '1883:1883']);
    expect(gws[0]!.environment?.SEAL_KEY_FILE).toBe('/app/keys/seal.key');
    expect(single.haproxy).toBeUndefined();
  });
});

describe.skipIf(!hasCompose)('the compose files, as compose reads them', () => {
  it('are valid compose files; the two-gateway layout refuses to start without the shared sealing key, naming it', () => {
    const key = 'ab'.repeat(32);
    for (const file of ['docker-compose.yml', 'docker-compose.single.yml']) {
      const ok = composeConfig(file, { SEAL_KEY: key });
      expect(ok.status, `${file}: ${ok.stderr}`).toBe(0);
    }
    const unset = composeConfig('docker-compose.yml', {});
    expect(unset.status).not.toBe(0);
    expect(unset.stderr).toContain('set SEAL_KEY to the same 64 hex characters for every gateway');
  });
});

describe.skipIf(!hasHaproxy)('deploy/haproxy/haproxy.cfg', () => {
  it('is valid as shipped and with loopback addresses', () => {
    expect(spawnSync(HAPROXY, ['-c', '-q', '-f', CFG]).status).toBe(0);
    const loopback = {
      ...process.env,
      SENTRA_GW1_HTTP: '127.0.0.1:8081',
      SENTRA_GW1_MQTT: '127.0.0.1:1884',
      SENTRA_GW1_LIVENESS: '9081',
      SENTRA_GW2_HTTP: '127.0.0.1:8082',
      SENTRA_GW2_MQTT: '127.0.0.1:1885',
      SENTRA_GW2_LIVENESS: '9082',
    };
    const r = spawnSync(HAPROXY, ['-c', '-f', CFG], { env: loopback, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/WARNING|ALERT/);
  });

  // two stand-in gateways: an HTTP server naming itself, a TCP listener for MQTT, and the liveness check as the gateway
  // answers it (200 from GET /health on a port of its own)
  interface StandIn {
    name: string;
    healthy: boolean;
    http: http.Server;
    live: http.Server;
    mqtt: net.Server;
    sockets: Set<net.Socket>;
    /** connections that carried the test device's bytes */
    devices: Set<net.Socket>;
  }
  const standIns: StandIn[] = [];
  let proxy: ChildProcess;
  let httpPort: number;
  let mqttPort: number;
  const listen = (s: net.Server) =>
    new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as net.AddressInfo).port)));

  beforeAll(async () => {
    const env: Record<string, string> = {};
    for (const name of ['gw1', 'gw2']) {
      const g: StandIn = {
        name,
        healthy: true,
        http: http.createServer(),
        live: http.createServer((req, res) => res.writeHead(req.url === '/health' && g.healthy ? 200 : 503).end()),
        mqtt: net.createServer(),
        sockets: new Set(),
        devices: new Set(),
      };
      g.http.on('request', (req, res) => {
        // gw2 plays the upgraded gateway: only it has the new build's hashed file
        if (req.url === '/assets/index-new.js') res.writeHead(name === 'gw2' ? 200 : 404).end(name);
        else res.writeHead(200, { 'x-gateway': name }).end(name);
      });
      g.mqtt.on('connection', (s) => {
        g.sockets.add(s);
        s.on('data', (d: Buffer) => d.includes('DEVICE') && g.devices.add(s));
        s.on('error', () => undefined).on('close', () => (g.sockets.delete(s), g.devices.delete(s)));
      });
      env[`SENTRA_${name.toUpperCase()}_HTTP`] = `127.0.0.1:${await listen(g.http)}`;
      env[`SENTRA_${name.toUpperCase()}_MQTT`] = `127.0.0.1:${await listen(g.mqtt)}`;
      env[`SENTRA_${name.toUpperCase()}_LIVENESS`] = String(await listen(g.live));
      standIns.push(g);
    }
    [httpPort, mqttPort] = [await freePort(), await freePort()];
    proxy = spawn(HAPROXY, ['-f', CFG], {
      env: {
        ...process.env,
        ...env,
        SENTRA_HTTP_BIND: `127.0.0.1:${httpPort}`,
        SENTRA_MQTT_BIND: `127.0.0.1:${mqttPort}`,
      },
      stdio: 'ignore',
    });
    // both stand-ins in the pool: requests reach each of them
    const seen = new Set<string>();
    await until(async () => {
      const r = await fetch(`http://127.0.0.1:${httpPort}/x`).catch(() => undefined);
      if (r?.ok) seen.add(await r.text());
      return seen.size === 2;
    }, 5000);
    expect(seen.size).toBe(2);
  });
  afterAll(() => {
    proxy?.kill('SIGKILL');
    for (const g of standIns) {
      g.http.closeAllConnections();
      g.http.close();
      g.live.closeAllConnections();
      g.live.close();
      g.sockets.forEach((s) => s.destroy());
      g.mqtt.close();
    }
  });

  it("asks another gateway for a hashed file the first one does not have (a rolling upgrade's new page)", async () => {
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`http://127.0.0.1:${httpPort}/assets/index-new.js`);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('gw2');
    }
  });

  it('takes a gateway that fails its liveness check out within 2 s and cuts the device connections it held', async () => {
    // a device through HAProxy, on whichever stand-in leastconn chose
    const device = net.connect(mqttPort, '127.0.0.1');
    const closed = new Promise<number>((resolve) => device.on('close', () => resolve(Date.now())));
    device.on('error', () => undefined);
    device.write('DEVICE');
    expect(await until(() => standIns.some((g) => g.devices.size === 1), 3000)).toBe(true);
    const holder = standIns.find((g) => g.devices.size === 1)!;
    const other = standIns.find((g) => g !== holder)!;

    // the holder's liveness fails while its connections stay open and its ports accept (a hung event loop)
    const failed = Date.now();
    holder.healthy = false;
    // from then on every HTTP request is served by the other gateway (ten in a row)
    let streak = 0;
    const out = await until(
      async () => {
        const r = await fetch(`http://127.0.0.1:${httpPort}/x`).catch(() => undefined);
        streak = r && (await r.text()) === other.name ? streak + 1 : 0;
        return streak >= 10;
      },
      5000,
      10,
    );
    expect(out).toBe(true);
    expect(Date.now() - failed).toBeLessThan(2500);
    // and the device's connection was ended, so it reconnects through HAProxy to a live gateway
    expect(await Promise.race([closed, new Promise((r) => setTimeout(() => r(undefined), 3000))])).toBeDefined();
    expect((await closed) - failed).toBeLessThan(2500);
  });
});
