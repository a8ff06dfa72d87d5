// Live device data over socket.io (docs/conventions.md "Live data like Grafana Live"), two channels declared in
// contracts:
//   DEVICE_STATUS_LIVE params {}          → room `devices.<appId>`: DeviceStatusPush when a device connects or goes
//                                           silent (the registry's transitions)
//   DEVICE_DATA_LIVE   params {device_id} → room `device-data.<deviceId>`: DeviceDataPush for every committed message
// Both need what the data calls need (_device_manage_ or _device_list_). Data is emitted only for rooms with viewers.
import {
  DEVICE_DATA_LIVE,
  DEVICE_READ,
  DEVICE_STATUS_LIVE,
  DeviceDataSubscribeParams,
  T,
  type CallDef,
  type DeviceDataPush,
  type DeviceStatusPush,
  type LatestPoint,
} from '@sentra/contracts';
import type { Bus } from '../../platform/bus/types.js';
import { invalid } from '../../platform/http/errors.js';
import { authorize, type Caller } from '../../platform/http/mount.js';
import type { Realtime } from '../../platform/realtime/types.js';
import type { DeviceService } from '../devices/devices.service.js';
import type { DeviceRow } from '../devices/devices.table.js';
import { decodeValue } from './datatypes.js';
import type { TelemetryPipeline } from './ingest/pipeline.js';

export const devicesRoom = (appId: number) => `${DEVICE_STATUS_LIVE.channel}.${appId}`;
export const deviceDataRoom = (deviceId: number) => `${DEVICE_DATA_LIVE.channel}.${deviceId}`;

const READ_ACCESS = { access: DEVICE_READ } as unknown as CallDef;

function appOf(caller: Caller) {
  if (!caller.app) throw invalid('Header x-app-domain wajib diisi');
  authorize(caller, READ_ACCESS);
  return caller.app;
}

export function attachLiveChannels({
  realtime,
  telemetry,
  devices,
  bus,
}: {
  realtime: Realtime;
  telemetry: Pick<TelemetryPipeline, 'subscribe' | 'series'>;
  devices: Pick<DeviceService, 'on' | 'rowOf'>;
  bus: Pick<Bus, 'kind'>;
}) {
  realtime.channel(DEVICE_STATUS_LIVE.channel, { join: (caller) => devicesRoom(appOf(caller).id) });
  realtime.channel<unknown>(DEVICE_DATA_LIVE.channel, {
    join: async (caller, raw) => {
      const app = appOf(caller);
      const parsed = DeviceDataSubscribeParams.safeParse(raw);
      if (!parsed.success)
        throw invalid(
          T.common.invalidInput,
          parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        );
      return deviceDataRoom((await devices.rowOf(app.id, parsed.data.device_id)).id);
    },
  });

  // status changes are rare: with several gateways (NATS) they are always fanned out, the viewers may be elsewhere
  const emitStatus = (row: DeviceRow) => {
    const room = devicesRoom(row.appId);
    if (bus.kind !== 'nats' && realtime.viewers(room) === 0) return;
    const push: DeviceStatusPush = {
      id: row.id,
      online: row.online && !row.disabled,
      last_online_ts: row.lastOnlineTs,
      last_offline_ts: row.lastOfflineTs,
    };
    realtime.emit(room, DEVICE_STATUS_LIVE.event, push);
  };
  devices.on('status', emitStatus);
  devices.on('disabled', emitStatus);

  return telemetry.subscribe((batch) => {
    const room = deviceDataRoom(batch.deviceId);
    // a message that only repeated stored points (gateways storing locally) has nothing new to show
    if (realtime.viewers(room) === 0 || (batch.points.length === 0 && batch.states.length === 0)) return;
    const data: LatestPoint[] = [];
    for (const p of batch.points) {
      const s = telemetry.series(p.seriesId);
      if (s)
        data.push({
          sensor: s.sensor,
          configtype: s.configtype,
          param: s.param,
          subparam: s.subparam,
          datatype: s.datatype,
          value: decodeValue(s.datatype, p.num, p.text),
          ts: p.ts,
        });
    }
    const states = batch.states.map((c) => ({
      key: c.key,
      value: c.value === null ? null : (JSON.parse(c.value) as unknown),
      is_null: c.value === null,
      ts: c.ts,
    }));
    const push: DeviceDataPush = { device_id: batch.deviceId, data, states };
    realtime.emit(room, DEVICE_DATA_LIVE.event, push);
  });
}
