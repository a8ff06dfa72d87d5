// CSV downloads (spec 03 sections 2.5 "Download", 7, 9): streamed text/csv whose rows are exactly the stored points,
// named label_YYYYMMDD_HHmmss_id_sensor_configtype_param.csv.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { deviceDataContract, devicesContract, fillPath, T } from '@sentra/contracts';
import { call, headersOf, type Running } from './harness.js';
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

async function download(
  def: typeof deviceDataContract.csvPeriod | typeof deviceDataContract.csvLatest,
  input: Record<string, unknown>,
) {
  const { path, rest } = fillPath(def.path, input);
  const res = await fetch(
    `${gw.url}${path}?${new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)]))}`,
    { headers: headersOf(auth) },
  );
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    text: await res.text(),
  };
}

/** Asia/Jakarta is UTC+7 without daylight saving */
const jakarta = (ts: number) => {
  const d = new Date(ts + 7 * 3_600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
};

describe('CSV downloads', () => {
  it('streams a time range oldest first, one row per stored point, with the file name of section 9', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    await call(gw.url, devicesContract.edit, { id: device.id, label: 'Meteran Gedung A' }, auth);
    const base = Math.floor((Date.now() - 86_400_000) / 60_000) * 60_000;
    for (let i = 0; i < 5; i++)
      await client.publishAsync(
        `d/${device.id}/data`,
        JSON.stringify({
          _ts: base + i * 60_000,
          meter: { data: { kwh: 100 + i, note: i === 2 ? '=SUM(A1), "kutip"' : 'ok', phase: { r: i, s: -i } } },
        }),
        { qos: 1 },
      );
    await settle(
      gw,
      async () =>
        (
          await call(
            gw.url,
            deviceDataContract.ndata,
            { id: device.id, sensor: 'meter', configtype: 'data', param: 'kwh', ndata: 10 },
            auth,
          )
        ).body.data?.length === 5,
    );

    const before = Date.now();
    const r = await download(deviceDataContract.csvPeriod, {
      id: device.id,
      device_id: device.id,
      sensor: 'meter',
      configtype: 'data',
      param: 'kwh',
      start: base + 60_000,
      end: base + 180_000,
    });
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/csv; charset=utf-8');
    const name = /filename="([^"]+)"/.exec(r.disposition!)![1]!;
    expect(name).toMatch(new RegExp(`^Meteran_Gedung_A_\\d{8}_\\d{6}_${device.id}_meter_data_kwh\\.csv$`));
    const stamp = name.split('_').slice(3, 5).join('_');
    const local = new Date(before + 7 * 3_600_000).toISOString();
    expect(stamp.slice(0, 8)).toBe(local.slice(0, 10).replace(/-/g, ''));
    expect(r.text.split('\r\n')).toEqual([
      'timestamp,time,sensor,configtype,param,subparam,datatype,value,quality',
      ...[1, 2, 3].map(
        (i) => `${base + i * 60_000},${jakarta(base + i * 60_000)},meter,data,kwh,,number,${100 + i},good`,
      ),
      '',
    ]);

    // subparams ordered by time then subparam; text cells quoted and guarded against spreadsheet formulas
    const phase = await download(deviceDataContract.csvPeriod, {
      id: device.id,
      sensor: 'meter',
      configtype: 'data',
      param: 'phase',
      start: base,
      end: base + 60_000,
    });
    expect(
      phase.text
        .split('\r\n')
        .slice(1, 5)
        .map((l) => l.split(',').slice(5, 8).join(',')),
    ).toEqual(['r,number,0', 's,number,0', 'r,number,1', 's,number,-1']);
    const note = await download(deviceDataContract.csvPeriod, {
      id: device.id,
      sensor: 'meter',
      configtype: 'data',
      param: 'note',
      start: base + 120_000,
      end: base + 120_000,
    });
    expect(note.text.split('\r\n')[1]).toBe(
      `${base + 120_000},${jakarta(base + 120_000)},meter,data,note,,string,"'=SUM(A1), ""kutip""",good`,
    );
  });

  it('downloads the newest ndata points, oldest first; ndata outside 1..5000 is -10; another device id in the query is -10', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const base = Date.now() - 100_000;
    for (let i = 0; i < 8; i++)
      await client.publishAsync(
        `d/${device.id}/data`,
        JSON.stringify({ _ts: base + i * 1000, s: { data: { v: i } } }),
        { qos: 1 },
      );
    await settle(
      gw,
      async () =>
        (
          await call(
            gw.url,
            deviceDataContract.ndata,
            { id: device.id, sensor: 's', configtype: 'data', param: 'v', ndata: 10 },
            auth,
          )
        ).body.data?.length === 8,
    );
    const r = await download(deviceDataContract.csvLatest, {
      id: device.id,
      device_id: device.id,
      sensor: 's',
      configtype: 'data',
      param: 'v',
      ndata: 3,
    });
    expect(r.status).toBe(200);
    expect(
      r.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => Number(l.split(',')[7])),
    ).toEqual([5, 6, 7]);
    const stored = (
      await call(
        gw.url,
        deviceDataContract.ndata,
        { id: device.id, sensor: 's', configtype: 'data', param: 'v', ndata: 3 },
        auth,
      )
    ).body.data;
    expect(
      r.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => Number(l.split(',')[0])),
    ).toEqual(stored.map((p: any) => p.timestamp).reverse());
    for (const ndata of [0, 5001]) {
      const bad = await download(deviceDataContract.csvLatest, {
        id: device.id,
        sensor: 's',
        configtype: 'data',
        param: 'v',
        ndata,
      });
      expect([bad.status, JSON.parse(bad.text).response_result]).toEqual([400, -10]);
    }
    const mismatch = await download(deviceDataContract.csvLatest, {
      id: device.id,
      device_id: device.id + 1,
      sensor: 's',
      configtype: 'data',
      param: 'v',
      ndata: 3,
    });
    expect(mismatch.status).toBe(400);
  });

  it('writes the times and the file name in the zone the screen shows (tz), over any range; an unknown zone is -10 with its reason', async () => {
    const { device, client } = await mqttDevice(gw, auth, clients);
    const base = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
    for (let i = 0; i < 2; i++)
      await client.publishAsync(
        `d/${device.id}/data`,
        JSON.stringify({ _ts: base + i * 1000, s: { data: { v: i } } }),
        { qos: 1 },
      );
    await settle(
      gw,
      async () =>
        (
          await call(
            gw.url,
            deviceDataContract.ndata,
            { id: device.id, sensor: 's', configtype: 'data', param: 'v', ndata: 10 },
            auth,
          )
        ).body.data?.length === 2,
    );
    const utc = (ts: number) =>
      new Date(ts).toISOString().replace(/^(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d).*$/, '$2/$3/$1 $4');
    // everything since 1970 up to ten years ahead: no range limit for a streamed download
    const before = Date.now();
    const r = await download(deviceDataContract.csvPeriod, {
      id: device.id,
      sensor: 's',
      configtype: 'data',
      param: 'v',
      start: 0,
      end: before + 10 * 365 * 86_400_000,
      tz: 'UTC',
    });
    expect(r.status).toBe(200);
    expect(
      r.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',').slice(0, 2).join(',')),
    ).toEqual([0, 1].map((i) => `${base + i * 1000},${utc(base + i * 1000)}`));
    const stamp = /filename="[^"]+?_(\d{8})_\d{6}_/.exec(r.disposition!)![1]!;
    expect(stamp).toBe(new Date(before).toISOString().slice(0, 10).replace(/-/g, ''));
    const latest = await download(deviceDataContract.csvLatest, {
      id: device.id,
      sensor: 's',
      configtype: 'data',
      param: 'v',
      ndata: 1,
      tz: 'UTC',
    });
    expect(latest.text.trim().split('\r\n')[1]!.split(',')[1]).toBe(utc(base + 1000));
    // without tz: the application's zone (Asia/Jakarta)
    const app = await download(deviceDataContract.csvLatest, {
      id: device.id,
      sensor: 's',
      configtype: 'data',
      param: 'v',
      ndata: 1,
    });
    expect(app.text.trim().split('\r\n')[1]!.split(',')[1]).toBe(jakarta(base + 1000));
    const bad = await download(deviceDataContract.csvLatest, {
      id: device.id,
      sensor: 's',
      configtype: 'data',
      param: 'v',
      ndata: 1,
      tz: 'Mars/Olympus',
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({
      response_result: -10,
      errors: [{ path: 'tz', message: T.deviceData.timeZoneInvalid }],
    });
  });
});
