// Tasmota's own discovery (xdrv_12_discovery.ino, SetOption19 0, the default since 9.x): on every connect the firmware
// publishes, retained, `tasmota/discovery/<MAC>/config` (its MAC, IP, host name, model, version, relays `rl`, friendly
// names `fn`, topic `t`) and `tasmota/discovery/<MAC>/sensors` ({"sn": <its SENSOR message>}); an empty retained
// message there clears them (discovery turned off). They fill the device's info; nothing else reads them.
import { jsonDepthWithin, type TasmotaDiscovery } from '@sentra/contracts';
import { isPlainObject } from '../wire.js';

/** the firmware's discovery messages are 1–2 KiB; anything far bigger is not one */
export const MAX_DISCOVERY_BYTES = 8 * 1024;
const MAX_RELAYS = 32;
const MAX_TEXT = 64;

const DISCOVERY = /^tasmota\/discovery\/([0-9A-F]{12})\/(config|sensors)$/;

/** `tasmota/discovery/<MAC>/config|sensors` (the MAC as the firmware writes it: 12 upper-case hex digits) */
export function discoveryTopic(topic: string): { mac: string; kind: 'config' | 'sensors' } | undefined {
  const m = DISCOVERY.exec(topic);
  return m ? { mac: m[1]!, kind: m[2] as 'config' | 'sensors' } : undefined;
}

export const emptyDiscovery = (): TasmotaDiscovery => ({
  mac: null,
  ip: null,
  hostname: null,
  model: null,
  version: null,
  relays: [],
  friendly_names: [],
  sensors: {},
});

const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, MAX_TEXT) : null);

function json(payload: Buffer): unknown {
  if (payload.length > MAX_DISCOVERY_BYTES) return undefined;
  try {
    const v: unknown = JSON.parse(payload.toString('utf8'));
    return jsonDepthWithin(v, 8) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The device's discovery info after one message: `undefined` when the message is not a discovery message of this
 * shape (ignored, the info unchanged). An empty payload clears what that message had said.
 */
export function applyDiscovery(
  before: TasmotaDiscovery | null,
  topic: string,
  payload: Buffer,
): TasmotaDiscovery | null | undefined {
  const at = discoveryTopic(topic);
  if (!at) return undefined;
  const info = { ...(before ?? emptyDiscovery()) };
  if (payload.length === 0) {
    if (at.kind === 'sensors') info.sensors = {};
    else Object.assign(info, { ...emptyDiscovery(), sensors: info.sensors });
    return info.mac === null && Object.keys(info.sensors).length === 0 ? null : info;
  }
  const body = json(payload);
  if (!isPlainObject(body)) return undefined;
  if (at.kind === 'sensors') {
    if (!isPlainObject(body.sn)) return undefined;
    const { Time: _time, ...sensors } = body.sn;
    return { ...info, mac: info.mac ?? at.mac, sensors };
  }
  // the config names its own MAC; one naming another than its topic's is not the firmware's
  if (typeof body.mac === 'string' && body.mac.toUpperCase() !== at.mac) return undefined;
  const relays = Array.isArray(body.rl)
    ? body.rl.slice(0, MAX_RELAYS).map((r) => (Number.isInteger(r) ? (r as number) : 0))
    : [];
  const names = Array.isArray(body.fn) ? body.fn.slice(0, MAX_RELAYS).map(text) : [];
  return {
    ...info,
    mac: at.mac,
    ip: text(body.ip),
    hostname: text(body.hn),
    model: text(body.md),
    version: text(body.sw),
    relays,
    friendly_names: names,
  };
}
