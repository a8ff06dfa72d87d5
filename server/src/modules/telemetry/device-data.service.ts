// The data screens' reads (spec 03 section 2.5): latest values per series and per param, a param's newest N and time
// range (subparams folded into one object per timestamp), and CSV rows streamed in chunks. The device is checked by
// the caller (registry rowOf → 404); series are always looked up through the application (the tenant filter).
//
// Reads go through telemetry's asynchronous query (read/query.ts: either engine). A param's series are read together
// (one promise each, awaited at once), not one after the other: a request may name thousands of series.
import type { DeviceDataRow, LatestPoint, SensorDataRow } from '@sentra/contracts';
import type { Datatype } from './datatypes.js';
import type { TelemetryQuery } from './read/query.js';
import type { SeriesView } from './read/reads.js';
import { parseSensorConfig } from './sensor-config.js';

export interface ParamKey {
  sensor: string;
  configtype: string;
  param: string;
  /** one subparam only; absent → the whole param */
  subparam?: string;
}

/** One reading of a param: a value (or an object of subparam values) at a time. */
interface Reading {
  ts: number;
  value: unknown;
}

const QUALITY_GOOD = 'good';
const CSV_CHUNK = 2000;

export function createDeviceDataService(reads: TelemetryQuery) {
  /** the series of a param: the param itself, or its subparams (or the one asked for) */
  async function seriesOf(appId: number, deviceId: number, k: ParamKey): Promise<SeriesView[]> {
    if (k.subparam !== undefined) {
      const one = await reads.findSeries(appId, deviceId, k);
      return one ? [one] : [];
    }
    const whole = await reads.findSeries(appId, deviceId, { ...k, subparam: '' });
    if (whole) return [whole];
    return (await reads.seriesOfDevice(appId, deviceId)).filter(
      (s) => s.sensor === k.sensor && s.configtype === k.configtype && s.param === k.param && s.subparam !== '',
    );
  }

  /** readings from per-series points: one series → its values; several → `{subparam: value}` per timestamp */
  /** one series answered as plain values: the param itself, or the one subparam asked for */
  const scalar = (series: SeriesView[], k: ParamKey) =>
    series.length === 1 && (series[0]!.subparam === '' || k.subparam !== undefined);

  function fold(
    series: SeriesView[],
    points: { ts: number; value: unknown }[][],
    newestFirst: boolean,
    limit: number,
    asScalar: boolean,
  ): Reading[] {
    if (asScalar) return points[0]!.slice(0, limit);
    const byTs = new Map<number, Record<string, unknown>>();
    series.forEach((s, i) => {
      for (const p of points[i]!) {
        let o = byTs.get(p.ts);
        if (!o) byTs.set(p.ts, (o = {}));
        o[s.subparam] = p.value;
      }
    });
    const out = [...byTs].map(([ts, value]) => ({ ts, value }));
    out.sort((a, b) => (newestFirst ? b.ts - a.ts : a.ts - b.ts));
    return out.slice(0, limit);
  }

  const datatypeOf = (series: SeriesView[], asScalar: boolean): Datatype => (asScalar ? series[0]!.datatype : 'object');

  const toRows = (k: ParamKey, dt: Datatype, readings: Reading[]): SensorDataRow[] =>
    readings.map((r) => ({
      dt,
      value: r.value,
      quality: QUALITY_GOOD,
      timestamp: r.ts,
      sensor: k.sensor,
      configtype: k.configtype,
      param: k.param,
    }));

  return {
    /** every stored series' latest value, newest first */
    async latest(appId: number, deviceId: number): Promise<LatestPoint[]> {
      return (await reads.latestOfDevice(appId, deviceId))
        .filter((l) => l.data_exist && l.ts !== null)
        .map((l) => ({
          sensor: l.sensor,
          configtype: l.configtype,
          param: l.param,
          subparam: l.subparam,
          datatype: l.datatype,
          value: l.value,
          ts: l.ts!,
        }))
        .sort((a, b) => b.ts - a.ts);
    },

    /** one row per sensor/configtype/param: stored ones with their latest value, then declared ones without data */
    async list(appId: number, deviceId: number, sensors: unknown): Promise<DeviceDataRow[]> {
      const config = parseSensorConfig(sensors);
      const rows = new Map<string, DeviceDataRow>();
      for (const l of await reads.latestOfDevice(appId, deviceId)) {
        const key = `${l.sensor}\u001f${l.configtype}\u001f${l.param}`;
        let row = rows.get(key);
        if (l.subparam === '') {
          rows.set(key, {
            sensor: l.sensor,
            configtype: l.configtype,
            param: l.param,
            datatype: l.datatype,
            subparam_datatypes: row?.subparam_datatypes ?? {},
            value: l.value,
            ts: l.ts,
            data_exist: l.data_exist,
          });
          continue;
        }
        if (!row)
          rows.set(
            key,
            (row = {
              sensor: l.sensor,
              configtype: l.configtype,
              param: l.param,
              datatype: 'object',
              subparam_datatypes: {},
              value: {},
              ts: null,
              data_exist: false,
            }),
          );
        row.subparam_datatypes[l.subparam] = l.datatype;
        if (l.data_exist) {
          if (row.value === null || typeof row.value !== 'object') row.value = {};
          (row.value as Record<string, unknown>)[l.subparam] = l.value;
          row.data_exist = true;
          row.ts = Math.max(row.ts ?? 0, l.ts ?? 0);
        }
      }
      for (const p of config.params) {
        const key = `${p.sensor}\u001f${p.configtype}\u001f${p.param}`;
        const row = rows.get(key);
        if (row) {
          // the configuration's word wins for the datatype the console edits with
          if (p.datatype && Object.keys(row.subparam_datatypes).length === 0) row.datatype = p.datatype;
          continue;
        }
        const subs = Object.keys(p.subparams).length > 0;
        rows.set(key, {
          sensor: p.sensor,
          configtype: p.configtype,
          param: p.param,
          datatype: p.datatype ?? (subs ? 'object' : 'string'),
          subparam_datatypes: { ...p.subparams },
          value: null,
          ts: null,
          data_exist: false,
        });
      }
      return [...rows.values()];
    },

    /** the newest n readings, newest first */
    async newest(appId: number, deviceId: number, k: ParamKey, n: number): Promise<SensorDataRow[]> {
      const series = await seriesOf(appId, deviceId, k);
      if (!series.length) return [];
      const one = scalar(series, k);
      const points = await Promise.all(series.map((s) => reads.latestN(s, n)));
      return toRows(k, datatypeOf(series, one), fold(series, points, true, n, one));
    },

    /** readings with start ≤ ts ≤ end, newest first, at most `limit` (the newest ones) */
    async range(
      appId: number,
      deviceId: number,
      k: ParamKey,
      start: number,
      end: number,
      limit: number,
    ): Promise<{ rows: SensorDataRow[]; truncated: boolean }> {
      const series = await seriesOf(appId, deviceId, k);
      if (!series.length) return { rows: [], truncated: false };
      const points = await Promise.all(series.map((s) => reads.newestInRange(s, start, end, limit + 1)));
      const one = scalar(series, k);
      const readings = fold(series, points, true, limit + 1, one);
      return {
        rows: toRows(k, datatypeOf(series, one), readings.slice(0, limit)),
        truncated: readings.length > limit || points.some((p) => p.length > limit),
      };
    },

    /**
     * CSV rows oldest first, one per stored point (several subparams: ordered by time, then subparam), read in chunks
     * so a long range never holds the database or the memory: `each` receives a chunk and may wait (back-pressure).
     */
    async csvRange(
      appId: number,
      deviceId: number,
      k: ParamKey,
      start: number,
      end: number,
      each: (chunk: CsvPoint[]) => Promise<void> | void,
    ): Promise<number> {
      const series = await seriesOf(appId, deviceId, k);
      const cursors = series.map((s) => ({ s, from: start, buf: [] as { ts: number; value: unknown }[], done: false }));
      const refill = async (c: (typeof cursors)[number]) => {
        if (c.buf.length || c.done) return;
        c.buf = await reads.range(c.s, c.from, end, CSV_CHUNK);
        if (c.buf.length < CSV_CHUNK) c.done = true;
        if (c.buf.length) c.from = c.buf[c.buf.length - 1]!.ts + 1;
      };
      /** the cursors that ran dry and may have more, refilled together */
      const refillAll = () => {
        const empty = cursors.filter((c) => !c.buf.length && !c.done);
        return empty.length ? Promise.all(empty.map(refill)) : undefined;
      };
      let total = 0;
      for (;;) {
        const chunk: CsvPoint[] = [];
        while (chunk.length < CSV_CHUNK) {
          const refilling = refillAll();
          if (refilling) await refilling;
          let next: (typeof cursors)[number] | undefined;
          for (const c of cursors) if (c.buf.length && (!next || c.buf[0]!.ts < next.buf[0]!.ts)) next = c;
          if (!next) break;
          const p = next.buf.shift()!;
          chunk.push({ ts: p.ts, subparam: next.s.subparam, datatype: next.s.datatype, value: p.value });
        }
        if (!chunk.length) return total;
        total += chunk.length;
        await each(chunk);
      }
    },

    /** the newest n readings as CSV points, oldest first */
    async csvLatest(appId: number, deviceId: number, k: ParamKey, n: number): Promise<CsvPoint[]> {
      const series = await seriesOf(appId, deviceId, k);
      const points = await Promise.all(series.map((s) => reads.latestN(s, n)));
      const all: CsvPoint[] = [];
      series.forEach((s, i) => {
        for (const p of points[i]!) all.push({ ts: p.ts, subparam: s.subparam, datatype: s.datatype, value: p.value });
      });
      // n readings = the n newest distinct timestamps
      const keep = new Set([...new Set(all.map((p) => p.ts))].sort((a, b) => b - a).slice(0, n));
      return all.filter((p) => keep.has(p.ts)).sort((a, b) => a.ts - b.ts || a.subparam.localeCompare(b.subparam));
    },
  };
}

export interface CsvPoint {
  ts: number;
  subparam: string;
  datatype: Datatype;
  value: unknown;
}

export type DeviceDataService = ReturnType<typeof createDeviceDataService>;
