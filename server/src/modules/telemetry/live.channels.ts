// Live device data over socket.io (STYLE.md "Live data like Grafana Live"), two channels:
//   `devices`     params {}            → room `devices.<appId>`: `device.status` {id, online, last_online_ts, last_offline_ts}
//                                        when a device connects or goes silent (the registry's transitions)
//   `device-data` params {device_id}   → room `device-data.<deviceId>`: `device.data` {device_id, data: LatestPoint[],
//                                        states} for every committed message of the device
// Both need what the data calls need (_device_manage_ or _device_list_). Data is emitted only for rooms with viewers.
import { DEVICE_READ, type CallDef, type LatestPoint } from '@sentra/contracts';
import type { Bus } from '../../platform/bus/types.js';
import { invalid } from '../../platform/http/errors.js';
import { authorize, type Caller } from '../../platform/http/mount.js';
import type { Realtime } from '../../platform/realtime/types.js';
import type { DeviceService } from '../devices/devices.service.js';
import type { DeviceRow } from '../devices/devices.table.js';
import { decodeValue } from './datatypes.js';
import type { TelemetryPipeline } from './pipeline.js';

export const DEVICES_CHANNEL = 'devices';
export const DEVICE_DATA_CHANNEL = 'device-data';
export const devicesRoom = (appId: number) => `devices.${appId}`;
export const deviceDataRoom = (deviceId: number) => `device-data.${deviceId}`;

const READ_ACCESS = { access: DEVICE_READ } as unknown as CallDef;

function appOf(caller: Caller) {
  if (!caller.app) throw invalid('Header x-app-domain wajib diisi');
  authorize(caller, READ_ACCESS);
  return caller.app;
}

export function attachLiveChannels({ realtime, telemetry, devices, bus }: { realtime: Realtime; telemetry: Pick<TelemetryPipeline, 'subscribe' | 'series'>; devices: Pick<DeviceService, 'on' | 'rowOf'>; bus: Pick<Bus, 'kind'> }) {
  realtime.channel(DEVICES_CHANNEL, { join: (caller) => devicesRoom(appOf(caller).id) });
  realtime.channel<{ device_id?: unknown }>(DEVICE_DATA_CHANNEL, {
    join: (caller, params) => {
      const app = appOf(caller);
      const id = Number(params?.device_id);
      if (!Number.isSafeInteger(id) || id <= 0) throw invalid();
      return deviceDataRoom(devices.rowOf(app.id, id).id);
    },
  });

  // status changes are rare: with several gateways (NATS) they are always fanned out, the viewers may be elsewhere
  const emitStatus = (row: DeviceRow) => {
    const room = devicesRoom(row.appId);
    if (bus.kind !== 'nats' && realtime.viewers(room) === 0) return;
    realtime.emit(room, 'device.status', { id: row.id, online: row.online && !row.disabled, last_online_ts: row.lastOnlineTs, last_offline_ts: row.lastOfflineTs });
  };
  devices.on('status', emitStatus);
  devices.on('disabled', emitStatus);

  return telemetry.subscribe((batch) => {
    const room = deviceDataRoom(batch.deviceId);
    if (realtime.viewers(room) === 0) return;
    const data: LatestPoint[] = [];
    for (const p of batch.points) {
      const s = telemetry.series(p.seriesId);
      if (s) data.push({ sensor: s.sensor, configtype: s.configtype, param: s.param, subparam: s.subparam, datatype: s.datatype, value: decodeValue(s.datatype, p.num, p.text), ts: p.ts });
    }
    const states = batch.states.map((c) => ({ key: c.key, value: c.value === null ? null : (JSON.parse(c.value) as unknown), is_null: c.value === null, ts: c.ts }));
    realtime.emit(room, 'device.data', { device_id: batch.deviceId, data, states });
  });
}
