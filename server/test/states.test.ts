// Device states (spec 03 sections 2.6, 7 "States"): the list with Active/Inactive, a state's history by time and
// newest N, and "Hapus".
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { statesContract } from '@sentra/contracts';
import { call, type Running } from './harness.js';
import { mqttDevice, settle, startDataGateway, type AppAuth } from './device-data.kit.js';

let gw: Running;
let auth: AppAuth;
let clients: MqttClient[];
beforeAll(async () => {
  ({ gw, auth, clients } = await startDataGateway());
});
afterEach(() => {
  clients.splice(0).forEach((c) => c.end(true));
});
afterAll(async () => gw.stop());

describe('device states', () => {
  it('lists current states, answers history by newest N and by time, and deletes a state with its history', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const base = Date.now() - 60_000;
    const reports = [{ mode: 'auto' }, { mode: 'auto' }, { mode: 'manual', door: null }, { mode: 'off' }];
    for (const [i, r] of reports.entries())
      await client.publishAsync(`d/${device.id}/state`, JSON.stringify({ _ts: base + i * 10_000, ...r }), { qos: 1 });
    await settle(
      gw,
      async () =>
        (await call(gw.url, statesContract.list, { device_id: device.id }, auth)).body.states?.find(
          (s: any) => s.key === 'mode',
        )?.value === 'off',
    );
    const list = (await call(gw.url, statesContract.list, { device_id: device.id }, auth)).body;
    expect(list.states).toEqual([
      { key: 'door', value: null, is_null: true, initial_ts: base + 20_000, latest_ts: base + 20_000 },
      { key: 'mode', value: 'off', is_null: false, initial_ts: base + 30_000, latest_ts: base + 30_000 },
    ]);
    const newest = (await call(gw.url, statesContract.newest, { device_id: device.id, key: 'mode', n: 2 }, auth)).body
      .state_data;
    expect(newest.map((s: any) => [s.value, s.initial_ts, s.latest_ts])).toEqual([
      ['off', base + 30_000, base + 30_000],
      ['manual', base + 20_000, base + 20_000],
    ]);
    const periodic = (
      await call(
        gw.url,
        statesContract.periodic,
        { device_id: device.id, key: 'mode', start: base + 5000, end: base + 25_000 },
        auth,
      )
    ).body;
    // newest first, like "Nilai Terakhir"
    expect(periodic.state_data.map((s: any) => [s.value, s.initial_ts, s.latest_ts])).toEqual([
      ['manual', base + 20_000, base + 20_000],
      ['auto', base, base + 10_000],
    ]);
    expect(periodic.truncated).toBe(false);
    // any range is allowed (a download of everything since 1970): the answer is bounded by its count, not the range
    const everything = await call(
      gw.url,
      statesContract.periodic,
      { device_id: device.id, key: 'mode', start: 0, end: base + 10 * 365 * 86_400_000 },
      auth,
    );
    expect(everything.status).toBe(200);
    expect(everything.body.state_data.map((s: any) => s.value)).toEqual(['off', 'manual', 'auto']);
    expect((await call(gw.url, statesContract.remove, { device_id: device.id, key: 'mode' }, auth)).body).toEqual({
      response_result: 0,
    });
    expect(
      (await call(gw.url, statesContract.list, { device_id: device.id }, auth)).body.states.map((s: any) => s.key),
    ).toEqual(['door']);
    expect(
      (await call(gw.url, statesContract.newest, { device_id: device.id, key: 'mode', n: 5 }, auth)).body.state_data,
    ).toEqual([]);
    expect((await call(gw.url, statesContract.remove, { device_id: device.id, key: 'mode' }, auth)).status).toBe(404);
  });
});
