// Tasmota as the firmware speaks with FullTopic `%prefix%/%topic%/`: tele/<topic>/SENSOR|STATE|LWT every TelePeriod,
// and the answers to cmnd/<topic>/<Command>: stat/<topic>/RESULT plus stat/<topic>/POWER for power commands.
import type { Reading } from '../profiles/types.js';
import type { Frame } from './types.js';

export const tasmotaTopics = (topic: string) => ({
  lwt: `tele/${topic}/LWT`,
  sensor: `tele/${topic}/SENSOR`,
  state: `tele/${topic}/STATE`,
  commands: `cmnd/${topic}/#`,
  result: `stat/${topic}/RESULT`,
  power: `stat/${topic}/POWER`,
});

/**
 * Tasmota writes local time (Asia/Jakarta here), without a zone by default ("2024-05-01T17:04:05"); the simulated
 * plugs run with SetOption52 1, which appends the UTC offset ("2024-05-01T17:04:05+07:00"), so the gateway takes the
 * reading's own time (the demo replays a plug's past week with it).
 */
export const tasmotaTime = (t: number, withZone = true): string =>
  new Date(t + 7 * 3_600_000).toISOString().slice(0, 19) + (withZone ? '+07:00' : '');

/** How a Tasmota build names what our profiles call `env`: a BME280 on I2C. */
const SENSOR_NAMES: Record<string, { name: string; params: Record<string, string> }> = {
  env: { name: 'BME280', params: { temperature: 'Temperature', humidity: 'Humidity', pressure: 'Pressure' } },
};

/** The SENSOR body without Time: sensors by their Tasmota names, and the unit settings a BME280 build adds. */
export function tasmotaSensorBody(reading: Reading): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const sensor in reading.data) {
    const rename = SENSOR_NAMES[sensor];
    const out: Record<string, unknown> = {};
    for (const configtype in reading.data[sensor]) {
      const params = reading.data[sensor]![configtype]!;
      for (const param in params) {
        if (rename && !rename.params[param]) continue; // a mains-powered plug has no battery
        out[rename ? rename.params[param]! : param] = params[param];
      }
    }
    body[rename ? rename.name : sensor] = out;
    if (rename?.name === 'BME280') Object.assign(body, { PressureUnit: 'hPa', TempUnit: 'C' });
  }
  return body;
}

export function tasmotaSensor(topic: string, reading: Reading, t: number): Frame {
  return {
    topic: tasmotaTopics(topic).sensor,
    payload: JSON.stringify({ Time: tasmotaTime(t), ...tasmotaSensorBody(reading) }),
  };
}

export function tasmotaState(
  topic: string,
  s: { t: number; power: 'ON' | 'OFF'; uptimeSec: number; rssi: number },
): Frame {
  const up = s.uptimeSec;
  const uptime = `${Math.floor(up / 86400)}T${[Math.floor(up / 3600) % 24, Math.floor(up / 60) % 60, up % 60].map((n) => String(n).padStart(2, '0')).join(':')}`;
  const body = {
    Time: tasmotaTime(s.t),
    Uptime: uptime,
    UptimeSec: up,
    Heap: 26,
    SleepMode: 'Dynamic',
    Sleep: 50,
    LoadAvg: 19,
    MqttCount: 1,
    POWER: s.power,
    Wifi: {
      AP: 1,
      SSId: 'sentra-iot',
      BSSId: '30:B5:C2:5D:70:72',
      Channel: 6,
      Mode: '11n',
      RSSI: s.rssi,
      Signal: Math.round(s.rssi / 2 - 100),
      LinkCount: 1,
      Downtime: '0T00:00:03',
    },
  };
  return { topic: tasmotaTopics(topic).state, payload: JSON.stringify(body) };
}

/** Retained, as Tasmota publishes it; `Offline` is also the will the broker sends when the plug vanishes. */
export const tasmotaLwt = (topic: string, online: boolean): Frame => ({
  topic: tasmotaTopics(topic).lwt,
  payload: online ? 'Online' : 'Offline',
  retain: true,
});

export type PowerRequest = 'ON' | 'OFF' | 'TOGGLE' | 'QUERY';

/** The POWER command's payload as Tasmota reads it: ON/OFF/TOGGLE, 1/0/2, true/false; empty is a query. */
export function parsePowerPayload(payload: string): PowerRequest | null {
  const p = payload.trim().toUpperCase();
  if (p === '') return 'QUERY';
  if (p === 'ON' || p === '1' || p === 'TRUE') return 'ON';
  if (p === 'OFF' || p === '0' || p === 'FALSE') return 'OFF';
  if (p === 'TOGGLE' || p === '2') return 'TOGGLE';
  return null;
}

/** What a plug answers to `cmnd/<topic>/<command>`: the frames, and the POWER it switches to (undefined: unchanged). */
export function tasmotaAnswer(
  topic: string,
  command: string,
  payload: string,
  power: 'ON' | 'OFF',
  telePeriod: number,
): { frames: Frame[]; power?: 'ON' | 'OFF'; telePeriod?: number } {
  const t = tasmotaTopics(topic);
  const cmd = command.toUpperCase();
  if (cmd === 'POWER' || cmd === 'POWER1') {
    const req = parsePowerPayload(payload);
    if (!req) return { frames: [{ topic: t.result, payload: JSON.stringify({ Command: 'Error' }) }] };
    const next = req === 'QUERY' ? power : req === 'TOGGLE' ? (power === 'ON' ? 'OFF' : 'ON') : req;
    return {
      frames: [
        { topic: t.result, payload: JSON.stringify({ POWER: next }) },
        { topic: t.power, payload: next },
      ],
      power: next === power ? undefined : next,
    };
  }
  if (cmd === 'TELEPERIOD') {
    const n = Number(payload.trim());
    const next =
      payload.trim() === '' || !Number.isFinite(n) ? telePeriod : Math.min(3600, Math.max(10, Math.round(n)));
    return { frames: [{ topic: t.result, payload: JSON.stringify({ TelePeriod: next }) }], telePeriod: next };
  }
  return { frames: [{ topic: t.result, payload: JSON.stringify({ Command: 'Unknown' }) }] };
}
