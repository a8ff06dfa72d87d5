// The sensor configuration a device is registered with (the wizard's "Konfigurasi" JSON): the series its family's
// adapter will store, with their datatypes, in the shape the gateway reads (server telemetry/sensor-config.ts):
// `{sensor: {configtype: {param: "number" | {subparams: {sub: "boolean"}}}}}`, plus a LoRa node's `_decoder` table.
import type { Reading } from '../profiles/types.js';
import { loraDecoderFor, loraObject, registersOf, tasmotaSensorBody, type Scalar } from '../wire/index.js';
import type { WireKind } from './plan.js';

type Declared = string | { subparams: Record<string, string> };

const datatype = (v: unknown) => (typeof v === 'boolean' ? 'boolean' : typeof v === 'number' ? 'number' : 'string');
const declare = (v: unknown): Declared =>
  v !== null && typeof v === 'object'
    ? { subparams: Object.fromEntries(Object.entries(v).map(([s, x]) => [s, datatype(x)])) }
    : datatype(v);
const params = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([p, v]) => [p, declare(v)]));

export function sensorsOf(wire: WireKind, readings: Reading[]): Record<string, unknown> {
  const reading = readings[0]!;
  switch (wire) {
    case 'tasmota': {
      const body = tasmotaSensorBody(reading);
      return Object.fromEntries(
        Object.entries(body)
          .filter(([, v]) => v !== null && typeof v === 'object')
          .map(([sensor, v]) => [sensor, { data: params(v as Record<string, unknown>) }]),
      );
    }
    case 'lora':
      return {
        lora: { data: params(loraObject(reading) as Record<string, Scalar>) },
        _decoder: loraDecoderFor(reading),
      };
    case 'gateway':
      return Object.fromEntries(readings.map((r, i) => [`node${i + 1}`, { data: params(registersOf(r)) }]));
    default: {
      const out: Record<string, Record<string, Record<string, Declared>>> = {};
      for (const sensor in reading.data) {
        out[sensor] = {};
        for (const configtype in reading.data[sensor])
          out[sensor]![configtype] = params(reading.data[sensor]![configtype]!);
      }
      return out;
    }
  }
}
