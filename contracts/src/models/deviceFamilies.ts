// The table of device families (docs/conventions.md "Codes of the domain", spec 03 section 7): one row per family
// drives its calls, its add draft, its info answer and its activation, so no family is written out twice anywhere.
import { z } from 'zod';
import { T } from '../text/id.js';
import { gatewayUid, sensorsJson } from './device.js';
import { id } from './fields.js';

/**
 * How a device of the family proves itself before (or when) it is added:
 * - `none`: nothing (Dummy);
 * - `token`: a credentials token from provision/k/gen, checked once the device connected with it (Sentra end device);
 * - `uid`: the gateway's UID must have been heard on `gw/<uid>/up` (serial gateways); the add makes its broker secret;
 * - `lora`: DevEUI + OTAA key on one of the application's LoRa network servers;
 * - `mqtt` / `tasmota`: the add generates broker credentials; the password is shown once (the add's answer; the get
 *   answers it empty) and can be regenerated;
 * - `plugin`: an application of the Emma plugin cloud; `cloud`: an Imou cloud device.
 */
export type ActivationKind = 'none' | 'token' | 'uid' | 'lora' | 'mqtt' | 'tasmota' | 'plugin' | 'cloud';

export interface DeviceVariant {
  /** name of the add call in the contract (`<key>Add`) */
  key: string;
  deviceType: string;
  label: string;
  addPath: string;
}

export interface DeviceFamily {
  key: string;
  /** `category` number of the device (docs/conventions.md "Codes of the domain") */
  category: number;
  categoryText: string;
  /** path code after `device/` (`dum/node`, `io`, ...) */
  code: string;
  /** connection category (spec 03 section 3) */
  connection: string;
  activation: ActivationKind;
  addTimeoutMs: number;
  /** one add call per device type */
  variants: readonly DeviceVariant[];
  removePath: string;
  sensorsPath: string;
  getPath: string;
  /** the UID check of the activation screen (uid families) */
  checkPath?: string;
  /** answer field holding the UID (uid families) */
  uidField?: string;
  /** the add draft's own fields, beside serial_number, name, tags, sensors, description, latitude, longitude */
  fields: z.ZodRawShape;
  /** the add's refusals that belong to one of the family's own fields (message → field), e.g. a taken topic */
  addErrorFields?: Readonly<Record<string, string>>;
  /** the per-family get's own fields, beside the device */
  info: z.ZodRawShape;
}

const DEVICE = '/service/web/device/';
const S = 1000;

/** The four paths every family has, following the spec's pattern; the Sentra gateways override their adds. */
function paths(code: string, deviceType: string, label: string, key: string) {
  return {
    code,
    variants: [{ key, deviceType, label, addPath: `${DEVICE}${code}/add` }],
    removePath: `${DEVICE}${code}/remove`,
    sensorsPath: `${DEVICE}${code}/edit/sensors`,
    getPath: `${DEVICE}${code}/get/id/{id}`,
  };
}

const hex = (len: number, what: string) =>
  z
    .string({ error: `${what} ${T.common.required.toLowerCase()}` })
    .regex(new RegExp(`^[0-9A-Fa-f]{${len}}$`), `${what} harus ${len} digit heksadesimal`)
    .transform((s) => s.toUpperCase());

/**
 * How a serial gateway signs in on the broker (docs/conventions.md "Device topics"): client id = username = UID,
 * password = the secret made at activation. Every uid family's info carries the settings; `gateway_secret` only in the
 * answers that made it (the add and the regenerate call): only its hash is kept.
 */
export const GatewayConnection = z.object({
  mqtt_host: z.string(),
  mqtt_port: z.number().int(),
  mqtt_url: z.string(),
  ws_url: z.string(),
  client_id: z.string(),
  username: z.string(),
  up_topic: z.string(),
  down_topic: z.string(),
});
export type GatewayConnection = z.infer<typeof GatewayConnection>;
const gatewayInfo = { gateway_connection: GatewayConnection, gateway_secret: z.string().optional() };

const uidFamily = (
  key: string,
  category: number,
  categoryText: string,
  code: string,
  connection: string,
  deviceType: string,
  uidField: string,
  check: string,
) => ({
  key,
  category,
  categoryText,
  connection,
  activation: 'uid' as const,
  addTimeoutMs: 180 * S,
  ...paths(code, deviceType, categoryText, key),
  checkPath: `${DEVICE}provision/${check}/check`,
  uidField,
  fields: { dev_uid: gatewayUid },
  info: { [uidField]: z.string(), ...gatewayInfo },
});

const mqttInfo = {
  store_mqtt_url: z.string(),
  store_mqtt_username: z.string(),
  store_mqtt_password: z.string(),
  store_mqtt_mode: z.string(),
  store_mqtt_details: z.record(z.string(), z.unknown()),
  store_mqtt_topic: z.string(),
};

/**
 * A Tasmota Topic as the firmware keeps it (its `Topic` command: at most 32 characters; `+`, `#`, `/` and spaces are
 * not topic text, `0`/`1` mean "the default"): letters, digits, `.`, `_` and `-`, so it stays one topic level.
 */
export const TASMOTA_TOPIC = /^[A-Za-z0-9._-]{1,32}$/;
export const tasmotaTopic = z
  .string()
  .regex(TASMOTA_TOPIC, T.devices.tasmotaTopicInvalid)
  .refine(
    (t) => t !== '0' && t !== '1' && t.toLowerCase() !== 'tasmotas' && !t.endsWith('_fb'),
    T.devices.tasmotaTopicInvalid,
  );

/** What the device's own discovery messages (tasmota/discovery/<MAC>/config and /sensors) told: null before any. */
export const TasmotaDiscovery = z.object({
  mac: z.string().nullable(),
  ip: z.string().nullable(),
  hostname: z.string().nullable(),
  model: z.string().nullable(),
  version: z.string().nullable(),
  /** per relay (Tasmota's `rl`): 0 none, 1 relay, 2 light, 3 shutter */
  relays: z.array(z.number().int()),
  /** friendly names (`fn`) */
  friendly_names: z.array(z.string().nullable()),
  /** the sensors message's `sn` (sensor name → its readings) */
  sensors: z.record(z.string(), z.unknown()),
});
export type TasmotaDiscovery = z.infer<typeof TasmotaDiscovery>;

const tasmotaInfo = {
  device_mqtt_url: z.string(),
  username: z.string(),
  password: z.string(),
  topic: z.string(),
  full_topic: z.string(),
  tasmota_discovery: TasmotaDiscovery.nullable(),
};

const sentraGatewayVariants = (
  [
    ['industrial', 'SENTRA_INDUSTRIAL_GATEWAY', 'Sentra Gateway'],
    ['mini', 'SENTRA_MINI_GATEWAY', 'Sentra Mini Gateway'],
    ['sensor', 'SENTRA_SENSOR_NODE', 'Sentra Sensor Node'],
    ['android', 'SENTRA_ANDROID_GATEWAY', 'Sentra Android Gateway'],
  ] as const
).map(([v, deviceType, label]) => ({
  key: `sentra${v[0]!.toUpperCase()}${v.slice(1)}`,
  deviceType,
  label,
  addPath: `${DEVICE}io/${v}/add`,
}));

export const deviceFamilies = [
  {
    key: 'dummy',
    category: 1,
    categoryText: 'Dummy',
    connection: 'ethernet',
    activation: 'none',
    addTimeoutMs: 30 * S,
    ...paths('dum/node', 'DUMMY', 'Dummy', 'dummy'),
    fields: {},
    info: {},
  },
  {
    key: 'sentraEnd',
    category: 2,
    categoryText: 'Sentra End Device',
    connection: 'sentra',
    activation: 'token',
    addTimeoutMs: 180 * S,
    ...paths('k/end', 'SENTRA_END_DEVICE', 'Sentra End Device', 'sentraEnd'),
    fields: {
      credentials_token: z.string({ error: T.common.required }).min(1, T.common.required).max(128),
      sensors: sensorsJson,
    },
    info: { token_connected_ts: z.number().int().nullable() },
  },
  {
    key: 'lora',
    category: 3,
    categoryText: 'LoRa',
    connection: 'lorawan',
    activation: 'lora',
    addTimeoutMs: 30 * S,
    ...paths('l/node', 'SENTRA_LORA_SENSOR_NODE', 'Sentra LoRa Sensor Node', 'lora'),
    fields: { dev_eui: hex(16, 'Dev EUI'), otaa_key: hex(32, 'OTAA key'), network_server_id: id },
    info: {
      dev_eui: z.string(),
      network_server_id: z.number().int(),
      network_server_name: z.string().nullable(),
      network_server_mac: z.string().nullable(),
    },
  },
  uidFamily('zlan', 4, 'ZLAN', 'z/node', 'zlan', 'ZLAN', 'zlan_dev_uid', 'z'),
  uidFamily('usrIot', 5, 'USR-IOT', 'ui/node', 'usr-iot', 'USR_IO424T_EWR', 'usriot_dev_uid', 'ui'),
  uidFamily('bivocom', 6, 'Bivocom', 'b/node', 'bivocom', 'BIVOCOM', 'bivocom_dev_uid', 'b'),
  uidFamily(
    'friendcom',
    7,
    'Friendcom',
    'friendcom/node',
    'friendcom',
    'FRIENDCOM_NBIOT',
    'friendcom_dev_uid',
    'friendcom',
  ),
  {
    key: 'mqtt',
    category: 8,
    categoryText: 'MQTT',
    connection: 'mqtt',
    activation: 'mqtt',
    addTimeoutMs: 30 * S,
    ...paths('mqtt/node', 'MQTT', 'MQTT', 'mqtt'),
    fields: {
      store_mqtt_mode: z.string().max(32).optional(),
      store_mqtt_details: z.record(z.string(), z.unknown()).optional(),
    },
    info: mqttInfo,
  },
  {
    key: 'tasmota',
    category: 9,
    categoryText: 'Tasmota',
    connection: 'tasmota',
    activation: 'tasmota',
    addTimeoutMs: 30 * S,
    ...paths('tasmota/node', 'TASMOTA_SONOFF_BASIC', 'Tasmota', 'tasmota'),
    fields: { topic: tasmotaTopic.optional() },
    addErrorFields: { [T.devices.serverTopicTaken]: 'topic' },
    info: tasmotaInfo,
  },
  {
    ...uidFamily(
      'sentraGateway',
      10,
      'Sentra Gateway',
      'io',
      'sentra',
      'SENTRA_INDUSTRIAL_GATEWAY',
      'sentra_device_uid',
      'io',
    ),
    variants: sentraGatewayVariants,
    addTimeoutMs: 60 * S,
    info: { sentra_device_uid: z.string(), sentra_device_type: z.string(), ...gatewayInfo },
  },
  {
    key: 'emma',
    category: 11,
    categoryText: 'Emma',
    connection: 'emma',
    activation: 'plugin',
    addTimeoutMs: 120 * S,
    ...paths('emma', 'EMMA', 'Emma', 'emma'),
    fields: {
      emma_plugin_key: z.string({ error: T.common.required }).min(1, T.common.required).max(256, T.common.max(256)),
      emma_application_plugin_id: z
        .string({ error: T.common.required })
        .min(1, T.common.required)
        .max(256, T.common.max(256)),
      emma_device_plugin_details: z.string().min(1, T.common.required).default('{}'),
    },
    info: {
      emma_plugin_definition: z.object({ name: z.string() }),
      emma_plugin_application_id: z.string(),
      emma_plugin_details: z.string(),
    },
  },
  {
    key: 'imou',
    category: 12,
    categoryText: 'Imou Camera',
    connection: 'imou_camera',
    activation: 'cloud',
    addTimeoutMs: 60 * S,
    ...paths('imouc', 'IMOU_CAMERA', 'Imou Camera', 'imou'),
    fields: {
      imou_device_id: z.string({ error: T.common.required }).min(1, T.common.required).max(128, T.common.max(128)),
      imou_application_id: z.string({ error: T.common.required }).min(1, T.common.required).max(128, T.common.max(128)),
    },
    info: { imou_device_id: z.string(), imou_application_id: z.string() },
  },
] as const satisfies readonly DeviceFamily[];

export type DeviceFamilyRow = (typeof deviceFamilies)[number];
export type DeviceFamilyKey = DeviceFamilyRow['key'];

export const familyByCategory = (category: number): DeviceFamily | undefined =>
  deviceFamilies.find((f) => f.category === category);
export const familyByKey = (key: string): DeviceFamily | undefined => deviceFamilies.find((f) => f.key === key);
/** Every device type code with its family and label (the list's "Semua jenis" filter). */
export const deviceTypes = deviceFamilies.flatMap((f) =>
  f.variants.map((v) => ({ deviceType: v.deviceType, label: v.label, category: f.category })),
);
