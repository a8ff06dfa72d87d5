// LoRa nodes behind a simulated ChirpStack v4 network server: uplink events with the raw frame (`data`, base64) and
// the codec's decoded `object`, status events with battery and margin, and downlinks on command/down answered by
// txack (and ack when confirmed). The byte layout is described by a decoder table the gateway can be configured with.
import type { Reading } from '../profiles/types.js';
import { flatten, isRecord, parseJsonObject, type Frame, type Scalar } from './types.js';

export const loraTopics = (appId: number | string, devEui: string) => {
  const base = `application/${appId}/device/${devEui.toLowerCase()}`;
  return {
    up: `${base}/event/up`,
    status: `${base}/event/status`,
    join: `${base}/event/join`,
    txack: `${base}/event/txack`,
    ack: `${base}/event/ack`,
    down: `${base}/command/down`,
  };
};
/** the network server's subscription for every device's downlinks */
export const loraDownlinkFilter = (appId: number | string) => `application/${appId}/device/+/command/down`;

/** The codec's object: the reading's params flat under one name each (the gateway files them under sensor `lora`). */
export function loraObject(reading: Reading): Record<string, Scalar | Record<string, Scalar>> {
  const out: Record<string, Scalar | Record<string, Scalar>> = {};
  const owner = new Map<string, string>();
  for (const v of flatten(reading.data)) {
    // the first sensor keeps the plain name; a second sensor with the same param is prefixed
    if (!owner.has(v.param)) owner.set(v.param, v.sensor);
    const name = owner.get(v.param) === v.sensor ? v.param : `${v.sensor}_${v.param}`;
    if (v.subparam) ((out[name] ??= {}) as Record<string, Scalar>)[v.subparam] = v.value;
    else out[name] = v.value;
  }
  return out;
}

/** Field table of the raw payload: each numeric leaf an i32 big-endian in hundredths, each boolean one byte. */
export interface LoraField {
  name: string;
  offset: number;
  type: 'i32' | 'u8';
  scale?: number;
}

export function loraLayout(reading: Reading): LoraField[] {
  const fields: LoraField[] = [];
  let offset = 0;
  for (const v of flatten(reading.data)) {
    const name = v.subparam ? `${v.param}_${v.subparam}` : v.param;
    if (typeof v.value === 'number') (fields.push({ name, offset, type: 'i32', scale: 0.01 }), (offset += 4));
    else if (typeof v.value === 'boolean') (fields.push({ name, offset, type: 'u8' }), (offset += 1));
  }
  return fields;
}

/** The decoder table (the gateway's `loraDecoderSchema`) for a reading's shape on `fPort`. */
export const loraDecoderFor = (reading: Reading, fPort = 2) => ({
  ports: {
    [String(fPort)]: loraLayout(reading).map((f) =>
      f.scale
        ? { name: f.name, offset: f.offset, type: f.type, scale: f.scale }
        : { name: f.name, offset: f.offset, type: f.type },
    ),
  },
});

export function loraBytes(reading: Reading): Buffer {
  const values = flatten(reading.data).filter((v) => typeof v.value === 'number' || typeof v.value === 'boolean');
  const layout = loraLayout(reading);
  const buf = Buffer.alloc(layout.reduce((n, f) => n + (f.type === 'i32' ? 4 : 1), 0));
  layout.forEach((f, i) => {
    const v = values[i]!.value;
    if (f.type === 'i32')
      buf.writeInt32BE(Math.max(-2147483648, Math.min(2147483647, Math.round((v as number) * 100))), f.offset);
    else buf.writeUInt8(v ? 1 : 0, f.offset);
  });
  return buf;
}

export interface LoraNode {
  appId: number;
  applicationName: string;
  devEui: string;
  deviceName: string;
  /** the network server's gateway that hears the node */
  gatewayId: string;
}

const deviceInfo = (n: LoraNode) => ({
  tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
  tenantName: 'Sentra',
  applicationId: String(n.appId),
  applicationName: n.applicationName,
  deviceProfileId: 'b1e0f3c6-0000-4000-8000-00000000a001',
  deviceProfileName: 'Sentra LoRa Sensor Node',
  deviceName: n.deviceName,
  devEui: n.devEui.toLowerCase(),
  tags: {},
});

export function loraUplink(
  n: LoraNode,
  u: { t: number; fCnt: number; fPort?: number; reading: Reading; rssi: number; snr: number },
): Frame {
  const fPort = u.fPort ?? 2;
  const body = {
    deduplicationId: `${n.devEui.toLowerCase()}-${u.fCnt}`,
    time: new Date(u.t).toISOString(),
    deviceInfo: deviceInfo(n),
    devAddr: n.devEui.slice(-8).toLowerCase(),
    adr: true,
    dr: 5,
    fCnt: u.fCnt,
    fPort,
    confirmed: false,
    data: loraBytes(u.reading).toString('base64'),
    object: loraObject(u.reading),
    rxInfo: [
      {
        gatewayId: n.gatewayId,
        uplinkId: u.fCnt,
        rssi: u.rssi,
        snr: u.snr,
        channel: u.fCnt % 8,
        location: {},
        context: 'AAAAAA==',
        metadata: {},
      },
    ],
    txInfo: {
      frequency: 922_000_000 + (u.fCnt % 8) * 200_000,
      modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } },
    },
  };
  return { topic: loraTopics(n.appId, n.devEui).up, payload: JSON.stringify(body) };
}

export function loraStatus(n: LoraNode, s: { t: number; batteryLevel: number; margin: number }): Frame {
  const body = {
    deduplicationId: `${n.devEui.toLowerCase()}-status-${s.t}`,
    time: new Date(s.t).toISOString(),
    deviceInfo: deviceInfo(n),
    margin: s.margin,
    externalPowerSource: false,
    batteryLevelUnavailable: false,
    batteryLevel: s.batteryLevel,
  };
  return { topic: loraTopics(n.appId, n.devEui).status, payload: JSON.stringify(body) };
}

export interface LoraDownlink {
  devEui: string;
  id: string;
  confirmed: boolean;
  fPort: number;
  /** `{param, value}` (optionally sensor, configtype) when the downlink is a configuration command */
  command?: { sensor: string; configtype: string; param: string; value: unknown };
}

/** ChirpStack's downlink command: `{devEui, confirmed, fPort, data | object}` with an optional `id`. */
export function parseLoraDownlink(topic: string, payload: Buffer | string): LoraDownlink | null {
  const m = /^application\/[^/]+\/device\/([0-9a-fA-F]{16})\/command\/down$/.exec(topic);
  const o = parseJsonObject(payload);
  if (!m || !o) return null;
  const obj = isRecord(o.object) ? o.object : undefined;
  const command =
    obj && typeof obj.param === 'string'
      ? {
          sensor: typeof obj.sensor === 'string' ? obj.sensor : 'lora',
          configtype: typeof obj.configtype === 'string' ? obj.configtype : 'data',
          param: obj.param,
          value: obj.value,
        }
      : undefined;
  return {
    devEui: m[1]!,
    id: typeof o.id === 'string' ? o.id : String(o.id ?? ''),
    confirmed: o.confirmed === true,
    fPort: typeof o.fPort === 'number' ? o.fPort : 10,
    command,
  };
}

/** What the network server says once the downlink left the gateway, and once a confirmed one was acknowledged. */
export function loraDownlinkEvents(
  n: LoraNode,
  d: LoraDownlink,
  t: number,
  fCntDown: number,
  acknowledged: boolean,
): Frame[] {
  const topics = loraTopics(n.appId, n.devEui);
  const frames: Frame[] = [
    {
      topic: topics.txack,
      payload: JSON.stringify({
        downlinkId: fCntDown,
        time: new Date(t).toISOString(),
        deviceInfo: deviceInfo(n),
        queueItemId: d.id,
        fCntDown,
        gatewayId: n.gatewayId,
      }),
    },
  ];
  if (d.confirmed)
    frames.push({
      topic: topics.ack,
      payload: JSON.stringify({
        deduplicationId: `${d.id}-ack`,
        time: new Date(t).toISOString(),
        deviceInfo: deviceInfo(n),
        queueItemId: d.id,
        acknowledged,
        fCntDown,
      }),
    });
  return frames;
}
