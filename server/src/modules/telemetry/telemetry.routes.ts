// Device data calls (contracts/src/http/device-data.ts): latest values, latest-N, ranges, CSV downloads, and each
// sensor row's policies and tags. Every call first finds the device in the caller's application (else 404).
import { once } from 'node:events';
import type { Response } from 'express';
import { RANGE_POINTS_MAX, deviceDataContract, type DataDevice, type DeviceTags } from '@sentra/contracts';
import type { AppStore } from '../../db.js';
import { implement, type BoundRoute } from '../../platform/http/mount.js';
import type { DeviceService } from '../devices/devices.service.js';
import type { DeviceRow } from '../devices/devices.table.js';
import type { TagsService } from '../tags/tags.service.js';
import { attachment, CSV_HEADER, csvFileName, csvRows } from './csv.js';
import type { DeviceDataService } from './device-data.service.js';
import { createSensorSettingsStore } from './sensor-settings.store.js';

export interface TelemetryRouteDeps {
  /** the sensor settings (policies and tags of a device's sensor row) are telemetry's own table */
  store: AppStore;
  devices: Pick<DeviceService, 'rowOf'>;
  tags: Pick<TagsService, 'normalise'>;
  data: DeviceDataService;
  now?: () => number;
}

export const dataDeviceOf = (r: DeviceRow): DataDevice => ({
  id: r.id,
  name: r.name,
  label: r.label ?? r.name,
  serial_number: r.serialNumber,
  category: r.category,
  category_text: r.categoryText,
  online: r.online,
  last_online_ts: r.lastOnlineTs,
  last_offline_ts: r.lastOfflineTs,
});

const parse = (text: string, fallback: unknown) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
};

/** writes a chunk, waiting while the client's socket is full; false once the client went away */
async function write(res: Response, text: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return false;
  if (!res.write(text)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  return !res.destroyed;
}

function startCsv(res: Response, fileName: string) {
  res.status(200);
  res.setHeader('content-type', 'text/csv; charset=utf-8');
  res.setHeader('content-disposition', attachment(fileName));
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
}

export function telemetryRoutes({ store, devices, tags, data, now = Date.now }: TelemetryRouteDeps): BoundRoute[] {
  const settings = createSensorSettingsStore(store);
  const settingsOf = (deviceId: number, key: string) => settings.settingsOf(deviceId, key);
  const saveSettings = (deviceId: number, key: string, set: { policies?: string; tags?: string }) =>
    settings.save(deviceId, key, set, now());

  return implement(deviceDataContract, {
    latest: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.id);
      return { device: dataDeviceOf(row), data: await data.latest(row.appId, row.id) };
    },
    list: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.id);
      return { device: dataDeviceOf(row), data: await data.list(row.appId, row.id, row.sensors) };
    },
    periodic: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.id);
      const { rows, truncated } = await data.range(row.appId, row.id, input, input.start, input.end, RANGE_POINTS_MAX);
      return { data: rows, truncated };
    },
    ndata: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.id);
      return { data: await data.newest(row.appId, row.id, input, input.ndata) };
    },
    csvPeriod: async ({ caller, input, res }) => {
      const app = caller.app!;
      const row = await devices.rowOf(app.id, input.id);
      const zone = input.tz ?? app.timezone;
      startCsv(res, csvFileName({ id: row.id, label: row.label ?? row.name }, input, now(), zone));
      if (await write(res, CSV_HEADER)) {
        await data
          .csvRange(row.appId, row.id, input, input.start, input.end, async (chunk) => {
            if (!(await write(res, csvRows(chunk, input, zone)))) throw new Error('client went away');
          })
          .catch(() => undefined);
      }
      res.end();
      return null;
    },
    csvLatest: async ({ caller, input, res }) => {
      const app = caller.app!;
      const row = await devices.rowOf(app.id, input.id);
      const points = await data.csvLatest(row.appId, row.id, input, input.ndata);
      const zone = input.tz ?? app.timezone;
      startCsv(res, csvFileName({ id: row.id, label: row.label ?? row.name }, input, now(), zone));
      res.end(CSV_HEADER + csvRows(points, input, zone));
      return null;
    },
    policyGet: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.device_id);
      const s = await settingsOf(row.id, input.key);
      return { policies: s ? parse(s.policies, {}) : {}, device_id: row.id, key: input.key };
    },
    policyEdit: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.device_id);
      const s = await saveSettings(row.id, input.key, { policies: JSON.stringify(input.policies) });
      return { policies: parse(s.policies, {}), device_id: row.id, key: input.key };
    },
    tagsGet: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.device_id);
      const s = await settingsOf(row.id, input.key);
      return { tags: (s ? parse(s.tags, {}) : {}) as DeviceTags, device_id: row.id, key: input.key };
    },
    tagsEdit: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.device_id);
      const normalised = await tags.normalise(row.appId, input.tags);
      const s = await saveSettings(row.id, input.key, { tags: JSON.stringify(normalised) });
      return { tags: parse(s.tags, {}) as DeviceTags, device_id: row.id, key: input.key };
    },
  });
}
