// The simulator against a real gateway on loopback: every family registered through the REST API as a user does it,
// activated (token, UID), connected over real MQTT, and its frames stored as the series its profile names.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { startGateway, type Running } from '../../server/test/harness.js';
import { tenantSession, until } from '../../server/test/fixtures.js';
import type { DeviceContext, DeviceResolver } from '../../server/src/modules/devices/families/index.js';
import type { MqttIdentity } from '../../server/src/platform/mqtt/types.js';
import { MIX } from './fleet/plan.js';
import { runFleet, type FleetHandle } from './fleet/run.js';
import type { GenericDevice } from './fleet/devices.js';
import { machineOn, type LaundryState } from './profiles/laundry.js';
import { flatten } from './wire/index.js';
import { demoDashboards, installDemoDashboards } from './demo.js';

let gw: Running;
let fleet: FleetHandle;
let bridged = false;
let tenant: { username: string; pass: string };

/**
 * Stand-in for the registry's telemetry resolver while the gateway does not install one (app.ts creates the pipeline
 * without a resolver): the same lookup by identity the devices module does, read from the gateway's own database.
 */
function registryResolver(sqlite: Database.Database): DeviceResolver {
  const byId = sqlite.prepare('select id, app_id, category, topic, dev_eui, uid, disabled from devices where id = ?');
  const byToken = sqlite.prepare(
    'select id, app_id, category, topic, dev_eui, uid, disabled from devices where token_id = ?',
  );
  const byEui = sqlite.prepare(
    'select id, app_id, category, topic, dev_eui, uid, disabled from devices where app_id = ? and dev_eui = ?',
  );
  const ctx = (r: any): DeviceContext | null =>
    r
      ? {
          deviceId: r.id,
          appId: r.app_id,
          category: r.category,
          tasmotaTopic: r.topic ?? undefined,
          devEui: r.dev_eui ?? undefined,
          uid: r.uid ?? undefined,
          disabled: r.disabled === 1,
        }
      : null;
  return {
    resolveDevice(identity: MqttIdentity, topic?: string) {
      const i = identity as MqttIdentity & { role?: string; deviceId?: number; tokenId?: number };
      if (i.role === 'networkServer') {
        const m = topic && /^application\/\d+\/device\/([0-9a-fA-F]{16})\//.exec(topic);
        return m ? ctx(byEui.get(i.appId, m[1]!.toUpperCase())) : null;
      }
      if (i.deviceId !== undefined) return ctx(byId.get(i.deviceId));
      if (i.tokenId !== undefined) return ctx(byToken.get(i.tokenId));
      return null;
    },
  };
}

// where the Sentra end devices keep their tokens between runs, as the demo keeps them in DATA_DIR
const tokensFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-fleet-')), 'tokens.json');

beforeAll(async () => {
  gw = await startGateway();
  const t = await tenantSession(gw.url);
  tenant = t;
  // the pipeline answers unknown_device for every message when nobody installed a resolver
  const probe = gw.app.telemetry.metrics() as { rejected: Record<string, number> };
  fleet = await runFleet({
    url: gw.url,
    mqtt: `mqtt://127.0.0.1:${gw.mqttPort}`,
    username: t.username,
    password: t.pass,
    domain: 'simfleet',
    devices: MIX.length, // the first pass of the mix: every family once
    rate: 4,
    seed: 'integration',
    ramp: 500,
    tokensFile,
  });
  // the fleet's messages reached the pipeline: one queued, or one of every device refused for want of a resolver (a
  // device heard before its activation is refused too, so one refusal says nothing)
  const metrics = () => gw.app.telemetry.metrics() as { queued_messages: number; rejected: Record<string, number> };
  const refused = () => (metrics().rejected.unknown_device ?? 0) - (probe.rejected.unknown_device ?? 0);
  expect(await until(() => metrics().queued_messages > 0 || refused() >= MIX.length)).toBe(true);
  if (metrics().queued_messages === 0) {
    bridged = true;
    gw.app.telemetry.useResolver(registryResolver(gw.app.db!.sqlite));
  }
  // time itself: the fleet publishes for a while (rate 4/s) so that the checks below have data of every device
  await new Promise((r) => setTimeout(r, 2500));
  await gw.app.telemetry.flush();
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
  await gw?.stop();
});

const seriesOf = (id: number) => gw.app.telemetry.reads!.seriesOfDevice(fleet.app!.id, id);
const deviceOf = (family: string, profile?: string) =>
  fleet.devices.find((d) => d.plan.family === family && (!profile || d.plan.profile === profile))!;

describe('the fleet on a real gateway', () => {
  it('registers every family through the REST API, activating token and UID devices, with no error', () => {
    if (bridged) console.warn('gateway installs no telemetry resolver: the test bridged it (see the simulator notes)');
    const s = fleet.stats();
    expect(s.lastError).toBeUndefined();
    expect(s.registered).toBe(MIX.length);
    expect(new Set(fleet.devices.map((d) => d.plan.family))).toEqual(new Set(MIX.map(([f]) => f)));
    expect(s.registeredOnly).toBe(3); // Dummy, Emma, Imou: no MQTT path
    expect(s.messages).toBeGreaterThan(MIX.length * 4);
  });

  it('stores what generic MQTT and Sentra end devices publish as the series their profiles name', () => {
    for (const d of fleet.devices.filter((x) => x.plan.wire === 'generic')) {
      const sim = (d.emitter as GenericDevice).sim;
      const names = seriesOf(d.id)
        .map((s) => `${s.sensor}/${s.configtype}/${s.param}/${s.subparam}`)
        .sort();
      const expected = flatten(sim.reading().data)
        .map((v) => `${v.sensor}/${v.configtype}/${v.param}/${v.subparam}`)
        .sort();
      expect(names, `${d.plan.family} ${d.plan.profile}`).toEqual(expected);
    }
    const fuel = deviceOf('mqtt', 'fuel');
    const tank = gw.app.telemetry.reads!.findSeries(fleet.app!.id, fuel.id, {
      sensor: 'tank',
      configtype: 'data',
      param: 'Pertalite',
      subparam: 'volume',
    })!;
    const litres = gw.app.telemetry.reads!.latestN(tank, 5).map((p) => p.value as number);
    expect(litres.length).toBeGreaterThan(2);
    litres.forEach((l) => expect(l).toBeGreaterThan(200));
  });

  it('stores Tasmota SENSOR and STATE, LoRa uplinks and serial gateway registers', async () => {
    const names = (id: number) => seriesOf(id).map((s) => `${s.sensor}/${s.param}/${s.subparam}`);
    expect(names(deviceOf('tasmota', 'plug').id)).toEqual(
      expect.arrayContaining(['ENERGY/Power/', 'COUNTER/C1/', 'device/UptimeSec/', 'device/Wifi/RSSI']),
    );
    expect(names(deviceOf('tasmota', 'environment').id)).toEqual(
      expect.arrayContaining(['BME280/Temperature/', 'BME280/Humidity/']),
    );
    expect(names(deviceOf('lora', 'environment').id)).toEqual(
      expect.arrayContaining(['lora/temperature/', 'radio/rssi/', 'status/battery_level/']),
    );
    expect(names(deviceOf('lora', 'gps').id)).toEqual(expect.arrayContaining(['lora/latitude/', 'lora/longitude/']));
    for (const family of ['zlan', 'usrIot', 'bivocom', 'friendcom', 'sentraGateway']) {
      const d = deviceOf(family);
      expect(names(d.id), family).toEqual(expect.arrayContaining(['node1/40001/']));
      expect(new Set(seriesOf(d.id).map((s) => s.sensor)).size, family).toBe(d.plan.nodes);
    }
    const states = (await gw.app.telemetry.states.list(fleet.app!.id, deviceOf('tasmota', 'plug').id)).map(
      (s) => s.key,
    );
    expect(states).toContain('POWER');
  });

  it('answers d/<id>/cmd on d/<id>/cmd/res: ack, busy while the machine runs, silence when told to fault', async () => {
    const laundry = deviceOf('mqtt', 'laundry');
    const replies: Record<string, unknown>[] = [];
    gw.app.broker.on('message', (_i, topic, payload) => {
      if (topic === `d/${laundry.id}/cmd/res`) replies.push(JSON.parse(payload.toString()));
    });
    const state = (laundry.emitter as GenericDevice).sim.snapshot() as LaundryState;
    // a machine idle now and for the next minutes: a paid cycle of its own schedule cannot start in between (a
    // cycle lasts at least 35 minutes), so only the command's start makes it busy
    const quiet = state.machines.find(
      (m) => !machineOn(m, state.t) && !machineOn(m, state.t + 60_000) && !machineOn(m, state.t + 120_000),
    );
    const idle = quiet ?? state.machines[0]!;
    const send = (id: string, param = 'start') =>
      gw.app.broker.publish(
        `d/${laundry.id}/cmd`,
        JSON.stringify({ id, sensor: idle.kind, configtype: 'data', param, value: idle.key }),
        { qos: 1 },
      );
    if (!quiet) {
      // every machine busy (a peak hour): one stopped by a remote stop stays off until its cycle would have ended
      await send('c0', 'stop');
      expect(await until(() => replies.length === 1, 8000)).toBe(true);
      replies.length = 0;
      await new Promise((r) => setTimeout(r, 600)); // the device takes one command per 500 ms
    }
    await send('c1');
    expect(await until(() => replies.length === 1, 8000)).toBe(true);
    await new Promise((r) => setTimeout(r, 600));
    await send('c2');
    expect(await until(() => replies.length === 2, 8000)).toBe(true);
    expect(replies).toEqual([
      { id: 'c1', ok: true },
      { id: 'c2', ok: false, code: -31 },
    ]);
    expect(fleet.fault(laundry.plan.serial, 'silent')).toBe(true);
    await send('c3');
    await new Promise((r) => setTimeout(r, 800));
    expect(replies.length).toBe(2);
    fleet.fault(laundry.plan.serial, 'none');
  });

  it('a Tasmota plug answers cmnd/<topic>/POWER with stat RESULT and POWER, and its LWT says Offline then Online', async () => {
    const plug = deviceOf('tasmota', 'plug');
    const seen: string[] = [];
    gw.app.broker.on('message', (_i, topic, payload) => {
      if (topic.includes(`/${plug.topic}/`)) seen.push(`${topic} ${payload.toString()}`);
    });
    await gw.app.broker.publish(`cmnd/${plug.topic}/POWER`, '');
    expect(await until(() => seen.some((s) => s.startsWith(`stat/${plug.topic}/POWER `)), 8000)).toBe(true);
    expect(seen.some((s) => s.startsWith(`stat/${plug.topic}/RESULT {"POWER":`))).toBe(true);
    fleet.fault(plug.plan.serial, 'offline', 500);
    expect(await until(() => seen.includes(`tele/${plug.topic}/LWT Offline`), 8000)).toBe(true);
    expect(await until(() => seen.includes(`tele/${plug.topic}/LWT Online`), 10_000)).toBe(true);
  });

  it('a Tasmota plug without a machine (BME280 plug) switches its relay on cmnd POWER and reports it like the firmware', async () => {
    const plug = deviceOf('tasmota', 'environment');
    const seen: string[] = [];
    gw.app.broker.on('message', (_i, topic, payload) => {
      if (topic.startsWith(`stat/${plug.topic}/`)) seen.push(`${topic} ${payload.toString()}`);
    });
    await gw.app.broker.publish(`cmnd/${plug.topic}/POWER`, 'ON');
    expect(await until(() => seen.includes(`stat/${plug.topic}/POWER ON`), 8000)).toBe(true);
    expect(seen).toContain(`stat/${plug.topic}/RESULT {"POWER":"ON"}`);
    await gw.app.telemetry.flush();
    expect((await gw.app.telemetry.states.list(fleet.app!.id, plug.id)).find((s) => s.key === 'POWER')?.value).toBe(
      'ON',
    );
  });

  it('the network server answers a LoRa downlink with txack and ack', async () => {
    const node = deviceOf('lora', 'environment');
    const base = `application/${fleet.app!.id}/device/${node.plan.devEui!.toLowerCase()}`;
    const seen: string[] = [];
    gw.app.broker.on('message', (_i, topic) => {
      if (topic.startsWith(base)) seen.push(topic.slice(base.length + 1));
    });
    await gw.app.broker.publish(
      `${base}/command/down`,
      JSON.stringify({
        id: 'q1',
        devEui: node.plan.devEui,
        confirmed: true,
        fPort: 10,
        object: { param: 'interval', value: 300 },
      }),
      { qos: 1 },
    );
    expect(await until(() => seen.includes('event/ack'), 8000)).toBe(true);
    expect(seen).toContain('event/txack');
  });

  it('a second run reuses the registered devices: gateways and MQTT/Tasmota devices sign in with a regenerated secret, Sentra end devices with the token they kept', async () => {
    const options = {
      url: gw.url,
      mqtt: `mqtt://127.0.0.1:${gw.mqttPort}`,
      username: tenant.username,
      password: tenant.pass,
      domain: 'simfleet',
      devices: MIX.length,
      rate: 4,
      seed: 'integration',
      ramp: 200,
      tokensFile,
    };
    const ids = (devices: typeof fleet.devices, family?: string) =>
      new Map(
        devices.filter((d) => family === undefined || d.plan.family === family).map((d) => [d.plan.serial, d.id]),
      );
    const sentra = ids(fleet.devices, 'sentraEnd');
    expect(sentra.size).toBeGreaterThan(0);
    const saved = JSON.parse(fs.readFileSync(tokensFile, 'utf8')) as Record<string, string>;
    expect(Object.keys(saved).sort()).toEqual([...sentra.keys()].sort());
    expect(fs.statSync(tokensFile).mode & 0o777).toBe(0o600);
    // a restart: the first run's devices go (a token device of two runs at once would take its session back and forth)
    await fleet.stop();
    const again = await runFleet(options);
    try {
      expect(again.stats().lastError).toBeUndefined();
      expect(ids(again.devices)).toEqual(ids(fleet.devices));
      const own = again.devices.filter((d) =>
        ['zlan', 'usrIot', 'bivocom', 'friendcom', 'sentraGateway', 'mqtt', 'tasmota', 'sentraEnd'].includes(
          d.plan.family,
        ),
      );
      expect(await until(() => own.every((d) => d.connection?.connected === true), 8000)).toBe(true);
    } finally {
      await again.stop();
    }
    // a token the gateway no longer takes (another database, say): the device is added again with a new one
    const [serial] = [...sentra.keys()];
    fs.writeFileSync(tokensFile, JSON.stringify({ ...saved, [serial!]: 'f'.repeat(64) }));
    const third = await runFleet(options);
    try {
      expect(third.stats().lastError).toBeUndefined();
      const now = ids(third.devices);
      expect(now.get(serial!)).not.toBe(sentra.get(serial!));
      for (const [s, id] of ids(fleet.devices)) if (s !== serial) expect(now.get(s)).toBe(id);
      const rewritten = JSON.parse(fs.readFileSync(tokensFile, 'utf8')) as Record<string, string>;
      expect(rewritten[serial!]).toMatch(/^[0-9a-f]{64}$/);
      expect(rewritten[serial!]).not.toBe('f'.repeat(64));
    } finally {
      await third.stop();
    }
  });

  it('installs the ready-made demo dashboards through the dashboards add call, once', async () => {
    const dashboards = demoDashboards(fleet.devices, 'integration');
    expect(dashboards.length).toBe(6);
    const gateway = { url: gw.url, username: tenant.username, password: tenant.pass, domain: fleet.app!.domain };
    const first = await installDemoDashboards(gateway, dashboards);
    expect(first).toMatchObject({ added: dashboards.map((d) => d.label), kept: [] });
    const again = await installDemoDashboards(gateway, dashboards);
    expect(again.kept.length).toBe(6);
    expect(again.ids).toEqual(first.ids);
    expect(Object.keys(first.ids)).toEqual(dashboards.map((d) => d.path));
  });
});
