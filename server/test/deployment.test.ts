// Gateways on one NATS bus prove that they share one database (platform/bus/deployment.ts), against a real
// nats-server: a gateway with another database is refused at its start with an error naming the cause, the running
// ones log the attempt, and every QoS 1 message reaches the shared database; on the wire each deployment's subjects
// live under its id, so another deployment's gateway never sees them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from 'nats';
import type { MqttClient } from 'mqtt';
import { startGateway, type Running } from './harness.js';
import { tenantWithApp, until } from './fixtures.js';
import { mqttDevice, type AppAuth } from './device-data.kit.js';
import { hasNatsServer, startNatsServer, type NatsServer } from '../src/platform/bus/testing/nats-server.js';
import { DeploymentMismatchError } from '../src/platform/bus/deployment.js';
import { deploymentIdOf } from '../src/platform/db/deployment.js';
import { errorCollector } from '../src/platform/testing/logs.js';

describe.skipIf(!hasNatsServer)('gateways on one bus share one database (BUS=nats)', () => {
  let nats: NatsServer;
  let shared: string;
  let one: Running;
  let two: Running;
  const clients: MqttClient[] = [];
  /** a logger that keeps the errors (the running gateways say when another deployment knocks) */
  const log = errorCollector();
  const errors = log.errors;

  beforeAll(async () => {
    nats = await startNatsServer();
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-deployment-'));
    const env = { BUS: 'nats', NATS_URL: nats.url, DATA_DIR: shared };
    one = await startGateway(env, { log });
    two = await startGateway(env, { log });
  });
  afterAll(async () => {
    clients.forEach((c) => c.end(true));
    await one?.stop();
    await two?.stop();
    await nats?.stop();
    fs.rmSync(shared, { recursive: true, force: true });
    fs.rmSync(`${shared}.seal.key`, { force: true });
  });

  it('refuses a third gateway with its own database at its start, naming the cause; the running gateways log it', async () => {
    const theirs = await deploymentIdOf(one.app.store);
    expect(await deploymentIdOf(two.app.store)).toBe(theirs);
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-deployment-other-'));
    try {
      const start = startGateway({ BUS: 'nats', NATS_URL: nats.url, DATA_DIR: own });
      await expect(start).rejects.toBeInstanceOf(DeploymentMismatchError);
      const message = await start.catch((err: Error) => err.message);
      expect(message).toContain(`another gateway on this NATS server (NATS_URL=${nats.url}`);
      expect(message).toContain(`uses another database (deployment ${theirs};`);
      expect(message).toContain(`this gateway's database (DATA_DIR=${own}) is deployment`);
      expect(message).toContain('Gateways of one deployment must share one database');
      await until(() => errors.some((e) => e.includes('a gateway with another database') && e.includes('was refused')));
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
      fs.rmSync(`${own}.seal.key`, { force: true });
    }
  });

  it('stores every QoS 1 message in the shared database, and keeps its subjects under its deployment on the wire', async () => {
    const owner = await tenantWithApp(one.url);
    const auth: AppAuth = { tenant: owner.tenant, domain: owner.domain };
    const { device, client } = await mqttDevice(one, auth, clients);
    // a NATS client of no deployment listening to everything: it sees only the deployment's own subjects
    const nc: NatsConnection = await connect({ servers: nats.url });
    const seen: string[] = [];
    nc.subscribe('>', { callback: (_e, m) => void seen.push(m.subject) });
    await nc.flush();
    try {
      const stored = () =>
        (one.app.telemetry.metrics() as Record<string, number>).stored_points +
        (two.app.telemetry.metrics() as Record<string, number>).stored_points;
      const before = stored();
      for (let i = 0; i < 30; i++)
        await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ pm: { meter: { power: i } } }), { qos: 1 });
      expect(await until(() => stored() - before === 30)).toBe(true);
      const tele = seen.filter((s) => s.includes(`tele.`));
      expect(tele.length).toBeGreaterThan(0);
      const prefix = `dep.${await deploymentIdOf(one.app.store)}.`;
      expect(tele.every((s) => s.startsWith(prefix))).toBe(true);
    } finally {
      await nc.close();
    }
  });
});
