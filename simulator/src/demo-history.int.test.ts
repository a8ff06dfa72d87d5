// The demo's first start against a real gateway: a fresh application replays a week of its devices' past through MQTT
// (readings stamped with their simulated time, stored by the normal pipeline with its rollups), then goes live; a
// restart replays only the time it was away and its counters continue; the demo fleet is tagged by role so the list
// and map cards read only their devices.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicesContract } from '@sentra/contracts';
import { startGateway, type Running } from '../../server/test/harness.js';
import { tenantSession } from '../../server/test/fixtures.js';
import { MIX } from './fleet/plan.js';
import { runFleet, historyStep, type FleetHandle } from './fleet/run.js';
import { RestClient } from './fleet/rest.js';
import { DEMO_ROLE, demoRole, tagDemoFleet } from './demo.js';

const DAY = 86_400_000;
let gw: Running;
let fleet: FleetHandle;
let tenant: { username: string; pass: string };
let history: { readings: number; ms: number };
const startedAt = Date.now();

beforeAll(async () => {
  gw = await startGateway();
  tenant = await tenantSession(gw.url);
  fleet = await runFleet({
    url: gw.url,
    mqtt: `mqtt://127.0.0.1:${gw.mqttPort}`,
    username: tenant.username,
    password: tenant.pass,
    domain: 'demohist',
    devices: MIX.length, // every family once
    rate: 1,
    seed: 'demo',
    ramp: 500,
    historyMs: 7 * DAY,
    // as the demo keeps them in DATA_DIR: a restart finds its Sentra end devices again
    tokensFile: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-demo-')), 'tokens.json'),
  });
  fleet.replayHistory();
  history = await fleet.history;
  await new Promise((r) => setTimeout(r, 1500)); // a live reading or two after the replay
  await gw.app.telemetry.flush();
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  await gw?.stop();
});

const deviceOf = (family: string, profile: string) =>
  fleet.devices.find((d) => d.plan.family === family && d.plan.profile === profile)!;
const series = (
  family: string,
  profile: string,
  sensor: string,
  configtype: string,
  param: string,
  subparam?: string,
) =>
  gw.app.telemetry.reads!.findSeries(fleet.app!.id, deviceOf(family, profile).id, {
    sensor,
    configtype,
    param,
    subparam,
  })!;

describe('the demo history on first start', () => {
  it('replays a week of readings before the live ones, coarse for old days and finer for the last day and hour', () => {
    expect(fleet.stats().lastError).toBeUndefined();
    // 7 days: 6 days at 30 min, 23 h at 5 min, 1 h at 1 min, per device that publishes (generic MQTT, Sentra end
    // devices, LoRa nodes, serial gateways and Tasmota plugs; three families are registered only)
    const perDevice =
      (6 * DAY) / historyStep(2 * DAY) +
      (23 * 3_600_000) / historyStep(2 * 3_600_000) +
      3_600_000 / historyStep(60_000);
    const replaying = fleet.devices.filter((d) => d.emitter).length;
    expect(replaying).toBe(
      fleet.devices.filter((d) => ['generic', 'lora', 'gateway', 'tasmota'].includes(d.plan.wire)).length,
    );
    expect(history.readings).toBeGreaterThanOrEqual(Math.floor(perDevice * replaying * 0.98));
    console.info(`history: ${history.readings} readings of ${replaying} devices in ${history.ms} ms`);
  });

  it("stores each series' week through the pipeline: the oldest point 7 days back, hourly rollups over every hour", () => {
    const checks = [
      series('mqtt', 'meter', 'pm', 'meter', 'energy'),
      series('mqtt', 'fuel', 'tank', 'data', 'Pertalite', 'volume'),
      series('mqtt', 'gps', 'gps', 'data', 'speed'),
      series('lora', 'environment', 'lora', 'data', 'temperature'),
      // a Tasmota plug's counter: its SENSOR Time carries the zone (SetOption52), so the gateway keeps its time
      series('tasmota', 'plug', 'ENERGY', 'data', 'Total'),
    ];
    for (const s of checks) {
      expect(s, 'series exists').toBeTruthy();
      const points = gw.app.telemetry.reads!.range(s, startedAt - 8 * DAY, Date.now() + 1000, 100_000);
      const oldest = Math.min(...points.map((p) => p.ts));
      expect(oldest).toBeLessThan(startedAt - 7 * DAY + 31 * 60_000);
      expect(oldest).toBeGreaterThan(startedAt - 7 * DAY - 60_000);
      // nothing shed: the 6 older days (30 min) and the day before the last hour (5 min) are there, give or take the
      // steps at the seams (the QoS 0 replay lost 5–50 % of them here: the gateway sheds QoS 0 past its queue bound)
      expect(points.filter((p) => p.ts <= startedAt - 3_600_000).length).toBeGreaterThanOrEqual(
        Math.floor(0.98 * (6 * 48 + 23 * 12)),
      );
      // the last hour at one reading a minute: a "1 jam terakhir" chart with 5-minute buckets has a point in each
      expect(points.filter((p) => p.ts > startedAt - 3_600_000).length).toBeGreaterThanOrEqual(55);
      const hours = gw.app.telemetry.reads!.rollups(s, {
        bucket: 'hour',
        start: startedAt - 7 * DAY + 3_600_000,
        end: startedAt,
      });
      expect(hours.length).toBeGreaterThanOrEqual(7 * 24 - 2);
    }
  });

  it("stores a serial gateway's week too: its nodes' registers 7 days back", () => {
    const zlan = deviceOf('zlan', 'meter');
    const all = gw.app.telemetry.reads!.seriesOfDevice(fleet.app!.id, zlan.id);
    expect(all.length).toBeGreaterThan(0);
    const points = gw.app.telemetry.reads!.range(all[0]!, startedAt - 8 * DAY, Date.now() + 1000, 100_000);
    expect(Math.min(...points.map((p) => p.ts))).toBeLessThan(startedAt - 7 * DAY + 31 * 60_000);
    expect(points.length).toBeGreaterThanOrEqual(Math.floor(0.98 * (6 * 48 + 23 * 12)));
  });

  it('keeps a cumulative counter rising from the past into the live readings (one simulation, no restart)', () => {
    const energy = series('mqtt', 'meter', 'pm', 'meter', 'energy');
    const values = gw.app.telemetry
      .reads!.range(energy, startedAt - 8 * DAY, Date.now() + 1000, 100_000)
      .sort((a, b) => a.ts - b.ts)
      .map((p) => p.value as number);
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
    expect(values.at(-1)! - values[0]!).toBeGreaterThan(0);
  });

  it('a restart fills the time the fleet was away and every counter continues where it was (no drop, no jump)', async () => {
    const counters = [
      series('mqtt', 'meter', 'pm', 'meter', 'energy'),
      series('mqtt', 'gps', 'gps', 'data', 'odometer'),
      series('mqtt', 'laundry', 'vending', 'data', 'transactions'),
      series('tasmota', 'plug', 'ENERGY', 'data', 'Total'),
    ];
    const lastOf = (s: (typeof counters)[number]) =>
      gw.app.telemetry.reads!.newestInRange(s, 0, Date.now() + 1000, 1)[0]!;
    const before = counters.map(lastOf);
    const ids = new Map(fleet.devices.map((d) => [d.plan.serial, d.id]));
    await fleet.stop();
    // away for a while: the second run replays from each device's newest stored reading to now
    await new Promise((r) => setTimeout(r, 2500));
    const restartedAt = Date.now();
    fleet = await runFleet({ ...fleet.options, historyMs: 7 * DAY });
    fleet.replayHistory();
    const second = await fleet.history;
    await new Promise((r) => setTimeout(r, 1500));
    await gw.app.telemetry.flush();
    // the same devices (the Sentra end devices with the token they kept), and only the seconds they were away
    expect(new Map(fleet.devices.map((d) => [d.plan.serial, d.id]))).toEqual(ids);
    expect(second.readings).toBeGreaterThan(0);
    expect(second.readings).toBeLessThan(history.readings / 50);
    counters.forEach((s, i) => {
      const last = before[i]!;
      const points = gw.app.telemetry
        .reads!.range(s, last.ts - 5 * 60_000, Date.now() + 1000, 10_000)
        .sort((a, b) => a.ts - b.ts);
      const v = (p: { value: unknown }) => p.value as number;
      // never falls
      for (let k = 1; k < points.length; k++) expect(v(points[k]!), s.param).toBeGreaterThanOrEqual(v(points[k - 1]!));
      // and the first reading of the second run continues at the pace of the minutes before the stop (no jump)
      const next = points.find((p) => p.ts > last.ts)!;
      expect(next, `${s.param}: a reading after the restart`).toBeTruthy();
      const pace = (v(last) - v(points[0]!)) / Math.max(1, last.ts - points[0]!.ts);
      expect(v(next) - v(last), s.param).toBeLessThanOrEqual(pace * (next.ts - last.ts) * 3 + 1);
    });
  }, 60_000);

  it('tags the trucks, panels, fuel stations and LoRa climate nodes by role, and nothing else', async () => {
    const tagged = await tagDemoFleet(
      { url: gw.url, username: tenant.username, password: tenant.pass, domain: 'demohist' },
      fleet.devices,
    );
    expect(tagged).toBe(fleet.devices.filter((d) => demoRole(d.plan)).length);
    const rest = new RestClient(gw.url);
    await rest.signIn(tenant.username, tenant.pass);
    rest.domain = 'demohist';
    for (const d of fleet.devices) {
      const { data } = await rest.call(devicesContract.get, { id: d.id });
      const role = demoRole(d.plan);
      expect(data.tags ?? {}, `${d.plan.family} ${d.plan.profile}`).toEqual(
        role ? { [DEMO_ROLE.prefix]: [DEMO_ROLE.options[role].key] } : {},
      );
    }
    // a second run keeps the category and options
    expect(
      await tagDemoFleet(
        { url: gw.url, username: tenant.username, password: tenant.pass, domain: 'demohist' },
        fleet.devices,
      ),
    ).toBe(tagged);
  });
});
