// What a device's sensor configuration (the `sensors` JSON of the registry) declares for its data: the datatype of
// each param and subparam, and a LoRa device's payload decoder. Read by the telemetry resolver (ingest) and by the
// data screens' calls (declared params without data yet).
//
// Accepted shapes (the product leaves them open; see docs/decisions/device-data.md):
//   { sensor: { configtype: { param: "number" | { datatype: "number", subparams?: { sub: "boolean" } } | <sample> } } }
//   [ { sensor, configtype?, param, datatype?, subparam_datatypes?: { sub: "number" } } ]
//   a LoRa decoder table under the reserved key `_decoder` of the object form (see devices/families/lora/decoder.ts)
import { inferDatatype, isDatatype, type Datatype } from './datatypes.js';
import { loraDecoderSchema, type LoraDecoder } from '../devices/families/index.js';

export interface DeclaredParam {
  sensor: string;
  configtype: string;
  param: string;
  /** undefined when the configuration names the param without a datatype or sample */
  datatype?: Datatype;
  subparams: Record<string, Datatype>;
}

export interface SensorConfig {
  params: DeclaredParam[];
  decoder?: LoraDecoder;
  /** datatype of (sensor, configtype, param, subparam), for the ingest adapters */
  datatypeOf(sensor: string, configtype: string, param: string, subparam: string): Datatype | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_PARAMS = 1000;

function subparamTypes(v: unknown): Record<string, Datatype> {
  // looked up by the names devices send: `toString` or `constructor` must find nothing, not Object.prototype's members
  const out: Record<string, Datatype> = Object.create(null);
  if (isObject(v)) for (const [k, dt] of Object.entries(v)) if (isDatatype(dt)) out[k] = dt;
  return out;
}

function declaration(sensor: string, configtype: string, param: string, spec: unknown): DeclaredParam {
  if (isDatatype(spec)) return { sensor, configtype, param, datatype: spec, subparams: {} };
  if (isObject(spec) && (isDatatype(spec.datatype) || isObject(spec.subparams) || isObject(spec.subparam_datatypes))) {
    return {
      sensor,
      configtype,
      param,
      datatype: isDatatype(spec.datatype) ? spec.datatype : undefined,
      subparams: subparamTypes(spec.subparams ?? spec.subparam_datatypes),
    };
  }
  // a sample value (dummy devices are often configured with one): its JSON type
  return {
    sensor,
    configtype,
    param,
    datatype: spec === null || spec === undefined ? undefined : (inferDatatype(spec) ?? undefined),
    subparams: {},
  };
}

const EMPTY: SensorConfig = { params: [], datatypeOf: () => undefined };

export function parseSensorConfig(sensors: unknown): SensorConfig {
  let json = sensors;
  if (typeof json === 'string') {
    try {
      json = JSON.parse(json);
    } catch {
      return EMPTY;
    }
  }
  const params: DeclaredParam[] = [];
  let decoder: LoraDecoder | undefined;
  if (Array.isArray(json)) {
    for (const row of json.slice(0, MAX_PARAMS)) {
      if (!isObject(row) || typeof row.sensor !== 'string' || typeof row.param !== 'string') continue;
      params.push(
        declaration(row.sensor, typeof row.configtype === 'string' ? row.configtype : 'data', row.param, row),
      );
    }
  } else if (isObject(json)) {
    if ('_decoder' in json) {
      const parsed = loraDecoderSchema.safeParse(json._decoder);
      if (parsed.success) decoder = parsed.data;
    }
    for (const [sensor, configs] of Object.entries(json)) {
      if (sensor.startsWith('_') || !isObject(configs)) continue;
      for (const [configtype, ps] of Object.entries(configs)) {
        if (!isObject(ps)) continue;
        for (const [param, spec] of Object.entries(ps))
          if (params.length < MAX_PARAMS) params.push(declaration(sensor, configtype, param, spec));
      }
    }
  }
  if (!params.length && !decoder) return EMPTY;
  const index = new Map<string, DeclaredParam>();
  for (const p of params) index.set(`${p.sensor}\u001f${p.configtype}\u001f${p.param}`, p);
  return {
    params,
    decoder,
    datatypeOf(sensor, configtype, param, subparam) {
      const p = index.get(`${sensor}\u001f${configtype}\u001f${param}`);
      if (!p) return undefined;
      return subparam ? p.subparams[subparam] : p.datatype;
    },
  };
}
