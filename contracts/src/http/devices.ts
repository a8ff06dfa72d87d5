// Device registry calls (spec 03 sections 2.1–2.4, 2.7, 7): the common calls, and every family's add, remove,
// sensors-edit, get and UID check built by one loop over the family table (models/deviceFamilies.ts).
import { z } from 'zod';
import type { SysNav } from '../codes.js';
import { T } from '../text/id.js';
import { defineCall, NoInput, type CallDef } from './define.js';
import { id } from '../models/fields.js';
import {
  Device,
  DeviceStatus,
  DeviceSummary,
  EmmaPluginApplication,
  deviceDescription,
  deviceName,
  deviceTags,
  latitude,
  longitude,
  sensorsJson,
  serialNumber,
  DEVICE_NAME_MAX,
} from '../models/device.js';
import { deviceFamilies, type DeviceFamily, type DeviceFamilyKey } from '../models/deviceFamilies.js';
import { tagFilter } from './dashboards.js';

/** Who may change devices, and who may look at them (tenants always may). */
export const DEVICE_WRITE: { navs: readonly SysNav[] } = { navs: ['_device_manage_'] };
export const DEVICE_READ: { navs: readonly SysNav[] } = { navs: ['_device_manage_', '_device_list_'] };

/** Call-specific failure codes of the device calls. */
export const DeviceCode = {
  /** the family's activation has not succeeded (token not connected, UID not heard) */
  NOT_ACTIVATED: -7,
} as const;

/** An empty form value clears a number (latitude/longitude) instead of becoming 0. */
const clearable = <S extends z.ZodType>(s: S) => z.preprocess((v) => (v === '' ? null : v), s.nullable());

/** The draft every add starts from (spec 03 section 3 "Device draft"). */
const DraftBase = z.object({
  serial_number: serialNumber,
  name: deviceName,
  description: deviceDescription.optional(),
  latitude: clearable(latitude).optional(),
  longitude: clearable(longitude).optional(),
  tags: deviceTags.optional(),
  sensors: sensorsJson.optional(),
});

export const addInputOf = (f: DeviceFamily) => DraftBase.extend(f.fields);
export const infoOutputOf = (f: DeviceFamily) => z.object({ data: Device.extend(f.info) });

const ById = z.object({ id });
const UidCheckInput = z
  .object({ dev_uid: z.string().max(64).optional(), token: z.string().max(64).optional() })
  .refine((v) => Boolean(v.dev_uid || v.token), { message: T.devices.uidRequired, path: ['dev_uid'] });

export interface FamilyCalls {
  family: DeviceFamily;
  /** add call per device type (one, except the Sentra gateways' four) */
  adds: Record<string, CallDef>;
  remove: CallDef;
  sensors: CallDef;
  get: CallDef;
  check?: CallDef;
}

function callsOf(f: DeviceFamily): FamilyCalls {
  const adds: Record<string, CallDef> = {};
  for (const v of f.variants) {
    adds[v.key] = defineCall({
      method: 'POST',
      path: v.addPath,
      summary: `Adds a ${v.label} device (${f.activation} activation)`,
      audience: 'member',
      access: DEVICE_WRITE,
      input: addInputOf(f),
      output: infoOutputOf(f),
      timeoutMs: f.addTimeoutMs,
      errors: { [-12]: T.devices.serverSerialTaken, [DeviceCode.NOT_ACTIVATED]: T.devices.serverNotActivated },
      errorFields: { [T.devices.serverSerialTaken]: 'serial_number', ...f.addErrorFields },
    });
  }
  return {
    family: f,
    adds,
    remove: defineCall({
      method: 'POST',
      path: f.removePath,
      summary: `Removes a ${f.categoryText} device and disconnects it`,
      audience: 'member',
      access: DEVICE_WRITE,
      input: ById,
      output: z.object({}),
    }),
    sensors: defineCall({
      method: 'POST',
      path: f.sensorsPath,
      summary: `Replaces the sensor configuration of a ${f.categoryText} device`,
      audience: 'member',
      access: DEVICE_WRITE,
      input: z.object({ id, sensors: sensorsJson }),
      output: z.object({ data: Device }),
    }),
    get: defineCall({
      method: 'GET',
      path: f.getPath,
      summary: `A ${f.categoryText} device with its family fields`,
      audience: 'member',
      access: DEVICE_READ,
      input: ById,
      output: infoOutputOf(f),
    }),
    check: f.checkPath
      ? defineCall({
          method: 'POST',
          path: f.checkPath,
          summary: `Succeeds once a ${f.categoryText} gateway with this UID has been heard on gw/<uid>/up`,
          audience: 'member',
          access: DEVICE_WRITE,
          input: UidCheckInput,
          output: z.object({ dev_uid: z.string(), heard_ts: z.number().int() }),
          errors: { [DeviceCode.NOT_ACTIVATED]: T.devices.serverUidNotHeard, [-12]: T.devices.serverUidTaken },
        })
      : undefined,
  };
}

/** Every family's calls, by family key. */
export const deviceFamilyCalls = Object.fromEntries(deviceFamilies.map((f) => [f.key, callsOf(f)])) as Record<
  DeviceFamilyKey,
  FamilyCalls
>;

/** The same calls flattened into contract entries: `<variant>Add`, `<family>Remove`, `<family>Sensors`, `<family>Get`, `<family>Check`. */
export const deviceFamilyContract: Record<string, CallDef> = Object.fromEntries(
  Object.values(deviceFamilyCalls).flatMap((c) => [
    ...Object.entries(c.adds).map(([k, def]) => [`${k}Add`, def] as const),
    [`${c.family.key}Remove`, c.remove] as const,
    [`${c.family.key}Sensors`, c.sensors] as const,
    [`${c.family.key}Get`, c.get] as const,
    ...(c.check ? [[`${c.family.key}Check`, c.check] as const] : []),
  ]),
);

/** `status` travels as `on`, `off`, `on,off` or a repeated query parameter. */
const statusList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
  z.array(DeviceStatus).max(2),
);

// the search runs as a full-text phrase, and a NUL ends an FTS5 query string early
const deviceSearch = z
  .string()
  .trim()
  .max(64)
  .refine((s) => !s.includes('\u0000'), T.common.invalidInput)
  .optional();

export const DeviceFilterInput = z.object({
  search: deviceSearch,
  status: statusList.optional(),
  category: z.coerce.number().int().min(1).max(99).optional(),
  type: z.string().max(64).optional(),
  /** one tag, `prefix:value` (not in the spec, issue 28): devices carrying that value in that category */
  tag: z
    .string()
    .trim()
    .max(80)
    .regex(/^[^:]+:.+$/, T.common.invalidInput)
    .optional(),
  page: z.coerce.number().int().min(0).max(100_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(25),
});

/**
 * Who may pick a device in an editor: whoever reads devices, and the dashboard editors (the query editor, variables,
 * the Visualisasi devices field), who see every device of the application through the selection trees already.
 */
export const DEVICE_PICK: { navs: readonly SysNav[] } = {
  navs: ['_device_manage_', '_device_list_', '_dashboard_manage_'],
};
export const DEVICE_PICK_SIZE_MAX = 50;

/** A device as a picker offers it: what it is found and told apart by, and its family (what it sends). */
export const DeviceChoice = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  serial_number: z.string(),
  category: z.number().int(),
  deviceType: z.string(),
  online: z.boolean(),
});
export type DeviceChoice = z.infer<typeof DeviceChoice>;

/** `ids` travels as `1,2,3`, a JSON array (`[1,2]`, how the console's client sends a list), repeated, or one value. */
const idList = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v.trim().startsWith('[')
        ? v.slice(1, -1).split(',').filter(Boolean)
        : v.split(',').filter(Boolean)
      : typeof v === 'number'
        ? [v]
        : v,
  z.array(z.coerce.number().int().min(1)).max(DEVICE_PICK_SIZE_MAX),
);

export const DevicePickInput = z.object({
  search: deviceSearch,
  /** only these devices (a picker naming the devices it holds) */
  ids: idList.optional(),
  /** only devices carrying one of these tags (`prefix:value`, or a bare value of any category): a card's tags */
  tags: tagFilter,
  page: z.coerce.number().int().min(0).max(100_000).default(0),
  size: z.coerce.number().int().min(1).max(DEVICE_PICK_SIZE_MAX).default(20),
});

export const devicesContract = {
  pick: defineCall({
    method: 'GET',
    path: '/service/web/device/pick',
    summary:
      'Devices for a picker: the whole application searched by name, serial number or id (an exact id, then names starting with the text, first), a page at a time',
    audience: 'member',
    access: DEVICE_PICK,
    input: DevicePickInput,
    output: z.object({
      devices: z.array(DeviceChoice),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
  }),
  filter: defineCall({
    method: 'GET',
    path: '/service/web/device/list/web/filter',
    summary:
      'Devices of the application: search by name, id or serial; status, type and tag filters; paging (newest first)',
    audience: 'member',
    access: DEVICE_READ,
    input: DeviceFilterInput,
    output: z.object({
      devices: z.array(DeviceSummary),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
  }),
  get: defineCall({
    method: 'GET',
    path: '/service/web/device/get/id/{id}',
    summary: 'One device with its sensors and tags',
    audience: 'member',
    access: DEVICE_READ,
    input: ById,
    output: z.object({ data: Device }),
  }),
  edit: defineCall({
    method: 'POST',
    path: '/service/web/device/edit',
    summary:
      'Edits name, description, latitude, longitude; or the label; or the tags; or the disabled flag (disabling disconnects the device)',
    audience: 'member',
    access: DEVICE_WRITE,
    input: z.object({
      id,
      name: deviceName.optional(),
      description: deviceDescription.nullable().optional(),
      latitude: clearable(latitude).optional(),
      longitude: clearable(longitude).optional(),
      label: z.string().max(DEVICE_NAME_MAX, T.common.max(DEVICE_NAME_MAX)).optional(),
      tags: deviceTags.optional(),
      disabled: z.boolean().optional(),
    }),
    output: z.object({ data: Device }),
  }),
  tokenGenerate: defineCall({
    method: 'POST',
    path: '/service/web/device/provision/k/gen',
    summary: 'Issues a credentials token for a Sentra end device (its MQTT username)',
    audience: 'member',
    access: DEVICE_WRITE,
    input: NoInput,
    output: z.object({ credentials_token: z.string() }),
  }),
  tokenCheck: defineCall({
    method: 'POST',
    path: '/service/web/device/provision/k/check',
    summary: 'Succeeds once a device has connected to the broker with this token',
    audience: 'member',
    access: DEVICE_WRITE,
    input: z.object({ token: z.string({ error: T.common.required }).min(1, T.common.required).max(128) }),
    output: z.object({ connected_ts: z.number().int() }),
    errors: { [DeviceCode.NOT_ACTIVATED]: T.devices.serverNotConnected },
  }),
  brokerSecretRegenerate: defineCall({
    method: 'POST',
    path: '/service/web/device/broker/secret/regenerate',
    summary:
      'A new broker password (MQTT, Tasmota) or gateway secret (serial gateways), shown once: the old one stops working and the device is disconnected',
    audience: 'member',
    access: DEVICE_WRITE,
    input: ById,
    output: z.object({ data: z.object({ id, username: z.string(), secret: z.string() }) }),
    errors: { [-10]: T.devices.serverNoBrokerSecret },
  }),
  emmaPlugins: defineCall({
    method: 'GET',
    path: '/service/web/device/emma/plugin/application/list',
    summary: 'Applications of the Emma plugin cloud this application may use',
    audience: 'member',
    access: DEVICE_READ,
    input: NoInput,
    output: z.object({ plugins: z.array(EmmaPluginApplication) }),
  }),
  dummyDashboard: defineCall({
    method: 'POST',
    path: '/service/web/application/nav/add/dum',
    summary: 'Generate Dashboard: a dashboard with one card per sensor parameter of a dummy device',
    audience: 'member',
    access: { navs: ['_dashboard_manage_'] },
    input: z.object({
      name: z.string({ error: T.common.required }).trim().min(1, T.common.required).max(64, T.common.max(64)),
      device_id: id,
    }),
    output: z.object({ data: z.object({ id: z.number().int(), label: z.string(), path: z.string() }) }),
  }),
} as const;
