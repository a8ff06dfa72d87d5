// Device data calls (spec 03 sections 2.5, 3 "Device data row" / "Sensor data row", 7 "Device data", 9): the latest
// values of a device, a series' latest-N and time range, CSV downloads, and each sensor row's policy and tags.
import { z } from 'zod';
import { T } from '../text/id.js';
import { defineCall } from './define.js';
import { DEVICE_READ, DEVICE_WRITE } from './devices.js';
import { id, INSTANT_MAX_MS, jsonDocument, timeZone } from '../models/fields.js';
import { deviceTags } from '../models/device.js';

/** Datatypes of spec 03 section 3. */
export const DATATYPES = [
  'number',
  'boolean',
  'datetime',
  'string',
  'object',
  'uobject',
  'image',
  'mobject',
  'surveillance',
  'array',
] as const;
export const Datatype = z.enum(DATATYPES);
export type Datatype = z.infer<typeof Datatype>;

/** Latest-N and download counts (spec 03 section 5: 1 to 5000). */
export const DOWNLOAD_NDATA_MAX = 5000;
/**
 * Points one JSON range answer carries at most (the newest of the range, `truncated` when more); CSV downloads stream
 * the whole range. Ranges themselves have no length limit (spec 03 section 2.6: any date): both are read by the index.
 */
export const RANGE_POINTS_MAX = 10_000;
/** Default file label when a device has none (spec 03 section 9). */
export const DOWNLOAD_DEFAULT_LABEL = 'Data_perangkat';

const name = z.string().min(1).max(64);
/** epoch ms as a query value */
const epochMs = z.coerce.number({ error: T.common.required }).int().min(0).max(INSTANT_MAX_MS);
export const ndata = z.coerce
  .number({ error: T.deviceData.ndataRange })
  .int(T.deviceData.ndataRange)
  .min(1, T.deviceData.ndataRange)
  .max(DOWNLOAD_NDATA_MAX, T.deviceData.ndataRange);

/** One series of the device: sensor, configtype and param, optionally one subparam (else the whole param). */
const SeriesQuery = z.object({ id, sensor: name, configtype: name, param: name, subparam: name.optional() });
/** A time range's one rule (the forms check it before asking, the calls again): the end is not before the start. */
export const rangeInOrder = (v: { start: number; end: number }) => v.end >= v.start;
const rangeChecks = <T extends { start: number; end: number }>(s: z.ZodType<T>) =>
  s.refine(rangeInOrder, { message: T.deviceData.rangeOrder, path: ['end'] });
/** the CSV calls repeat the path's id as `device_id` in the query (spec section 7): when sent, it must be the same */
const sameDevice = <T extends { id: number; device_id?: number }>(s: z.ZodType<T>) =>
  s.refine((v) => v.device_id === undefined || v.device_id === v.id, {
    message: T.common.invalidInput,
    path: ['device_id'],
  });
const Range = { start: epochMs, end: epochMs };
/** the CSV calls' optional `tz`: the zone the screen shows times in (the browser's), for the file's times and name */
const CsvZone = { tz: timeZone.optional() };

/** The device an answer is about (the data screens' header). */
export const DataDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  serial_number: z.string(),
  category: z.number().int(),
  category_text: z.string(),
  online: z.boolean(),
  last_online_ts: z.number().int().nullable(),
  last_offline_ts: z.number().int().nullable(),
});
export type DataDevice = z.infer<typeof DataDevice>;

/** One stored series' latest value (the Data page: Waktu Update, Konfigurasi, Nilai). */
export const LatestPoint = z.object({
  sensor: z.string(),
  configtype: z.string(),
  param: z.string(),
  /** '' when the param has no subparams */
  subparam: z.string(),
  datatype: Datatype,
  value: z.unknown(),
  ts: z.number().int(),
});
export type LatestPoint = z.infer<typeof LatestPoint>;

/** spec "Device data row": one per sensor/configtype/param; subparams are folded into `value` as an object. */
export const DeviceDataRow = z.object({
  sensor: z.string(),
  configtype: z.string(),
  param: z.string(),
  datatype: Datatype,
  /** subparam → datatype; empty when the param has none */
  subparam_datatypes: z.record(z.string(), Datatype),
  value: z.unknown(),
  ts: z.number().int().nullable(),
  /** false for a param the sensor configuration declares but the device never sent */
  data_exist: z.boolean(),
});
export type DeviceDataRow = z.infer<typeof DeviceDataRow>;

/** spec "Sensor data row". */
export const SensorDataRow = z.object({
  dt: Datatype,
  value: z.unknown(),
  /** always 'good': a stored point passed its datatype check (the field is kept for the spec's table) */
  quality: z.string(),
  timestamp: z.number().int(),
  sensor: z.string(),
  configtype: z.string(),
  param: z.string(),
});
export type SensorDataRow = z.infer<typeof SensorDataRow>;

const policiesJson = jsonDocument(T.devices.policyJson);

/** A sensor row's key: opaque to the server; the console sends `<sensor>.<configtype>.<param>`. */
export const sensorKey = z.string().min(1).max(200);
export const sensorKeyOf = (r: { sensor: string; configtype: string; param: string }) =>
  `${r.sensor}.${r.configtype}.${r.param}`;

const csvOutput = z.null();

export const deviceDataContract = {
  latest: defineCall({
    method: 'GET',
    path: '/fetch/web/device/data/{id}',
    summary: "The latest value of each of the device's series, newest first, with the device",
    audience: 'member',
    access: DEVICE_READ,
    input: z.object({ id }),
    output: z.object({ device: DataDevice, data: z.array(LatestPoint) }),
  }),
  list: defineCall({
    method: 'GET',
    path: '/fetch/web/device/data/list/{id}',
    summary:
      'One row per sensor/configtype/param (stored or declared by the sensor configuration) with datatype, subparam datatypes, latest value and time',
    audience: 'member',
    access: DEVICE_READ,
    input: z.object({ id }),
    output: z.object({ device: DataDevice, data: z.array(DeviceDataRow) }),
  }),
  periodic: defineCall({
    method: 'GET',
    path: '/fetch/web/device/periodic/{id}',
    summary: `Points of one param (or subparam) with start ≤ ts ≤ end (epoch ms), newest first, at most ${RANGE_POINTS_MAX}`,
    audience: 'member',
    access: DEVICE_READ,
    input: rangeChecks(SeriesQuery.extend(Range)),
    output: z.object({ data: z.array(SensorDataRow), truncated: z.boolean() }),
  }),
  ndata: defineCall({
    method: 'GET',
    path: '/fetch/web/device/ndata/{id}',
    summary: `The newest ndata (1–${DOWNLOAD_NDATA_MAX}) points of one param (or subparam), newest first`,
    audience: 'member',
    access: DEVICE_READ,
    input: SeriesQuery.extend({ ndata }),
    output: z.object({ data: z.array(SensorDataRow) }),
  }),
  csvPeriod: defineCall({
    method: 'GET',
    path: '/fetch/web/file/csv/period/{id}',
    summary:
      "CSV of one param between start and end (epoch ms, any range, streamed), oldest first; times and file name label_YYYYMMDD_HHmmss_id_sensor_configtype_param.csv in `tz` (IANA), else the application's zone",
    audience: 'member',
    access: DEVICE_READ,
    input: sameDevice(rangeChecks(SeriesQuery.extend({ ...Range, ...CsvZone, device_id: id.optional() }))),
    output: csvOutput,
    timeoutMs: 60_000,
    stream: 'text/csv',
  }),
  csvLatest: defineCall({
    method: 'GET',
    path: '/fetch/web/file/csv/nlatest/{id}',
    summary: `CSV of the newest ndata (1–${DOWNLOAD_NDATA_MAX}) points of one param, oldest first; times and file name in \`tz\` (IANA), else the application's zone`,
    audience: 'member',
    access: DEVICE_READ,
    input: sameDevice(SeriesQuery.extend({ ...CsvZone, device_id: id.optional(), ndata })),
    output: csvOutput,
    timeoutMs: 60_000,
    stream: 'text/csv',
  }),
  policyGet: defineCall({
    method: 'GET',
    path: '/service/web/device/sensor/get',
    summary: "A sensor row's policies JSON ({} until set)",
    audience: 'member',
    access: DEVICE_READ,
    input: z.object({ device_id: id, key: sensorKey }),
    output: z.object({ policies: z.unknown(), device_id: z.number().int(), key: z.string() }),
  }),
  policyEdit: defineCall({
    method: 'POST',
    path: '/service/web/device/sensor/edit',
    summary: "Replaces a sensor row's policies (a JSON object or array, or text holding one)",
    audience: 'member',
    access: DEVICE_WRITE,
    input: z.object({ device_id: id, key: sensorKey, policies: policiesJson }),
    output: z.object({ policies: z.unknown(), device_id: z.number().int(), key: z.string() }),
  }),
  tagsGet: defineCall({
    method: 'GET',
    path: '/service/web/device/sensor/tags/get',
    summary: "A sensor row's tags (tag category prefix → values)",
    audience: 'member',
    access: DEVICE_READ,
    input: z.object({ device_id: id, key: sensorKey }),
    output: z.object({ tags: deviceTags, device_id: z.number().int(), key: z.string() }),
  }),
  tagsEdit: defineCall({
    method: 'POST',
    path: '/service/web/device/sensor/tags/edit',
    summary: "Replaces a sensor row's tags, checked against the application's tag categories",
    audience: 'member',
    access: DEVICE_WRITE,
    input: z.object({ device_id: id, key: sensorKey, tags: deviceTags }),
    output: z.object({ tags: deviceTags, device_id: z.number().int(), key: z.string() }),
  }),
} as const;

/**
 * The socket.io channel of a device list: `subscribe` with `{ channel: DEVICE_STATUS_LIVE.channel, params: {} }`
 * (needs what the data calls need) joins the application's room; the server emits `DEVICE_STATUS_LIVE.event` with a
 * DeviceStatusPush when a device connects, goes silent or is disabled.
 */
export const DEVICE_STATUS_LIVE = {
  channel: 'devices',
  event: 'device.status',
} as const;

export const DeviceStatusPush = z.object({
  id: z.number().int(),
  /** false while disabled, whatever the connection */
  online: z.boolean(),
  last_online_ts: z.number().int().nullable(),
  last_offline_ts: z.number().int().nullable(),
});
export type DeviceStatusPush = z.infer<typeof DeviceStatusPush>;

/**
 * The socket.io channel of one device's data pages: `subscribe` with `{ channel: DEVICE_DATA_LIVE.channel, params:
 * DeviceDataSubscribeParams }`; the server emits `DEVICE_DATA_LIVE.event` with a DeviceDataPush for every committed
 * message of the device.
 */
export const DEVICE_DATA_LIVE = {
  channel: 'device-data',
  event: 'device.data',
} as const;

export const DeviceDataSubscribeParams = z.object({
  device_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
export type DeviceDataSubscribeParams = z.output<typeof DeviceDataSubscribeParams>;

export const DeviceDataPush = z.object({
  device_id: z.number().int(),
  data: z.array(LatestPoint),
  /** the device state keys the message changed (`is_null` when the new value is null) */
  states: z.array(z.object({ key: z.string(), value: z.unknown(), is_null: z.boolean(), ts: z.number().int() })),
});
export type DeviceDataPush = z.infer<typeof DeviceDataPush>;
