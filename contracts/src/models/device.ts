// The device entity and its field rules (spec 03 sections 3 and 5): the server validates with them, the web's forms too.
import { jsonDocument } from './fields.js';
import { z } from 'zod';
import { T } from '../text/id.js';

export const DEVICE_NAME_MAX = 32;
export const DEVICE_DESCRIPTION_MAX = 128;
export const SERIAL_MAX = 64;
/** page sizes of the device list (spec 03 section 9) */
export const DEVICE_PAGE_SIZES = [25, 50, 100] as const;

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

export const serialNumber = required(T.devices.serialRequired).max(SERIAL_MAX, T.common.max(SERIAL_MAX));
export const deviceName = required(T.devices.nameRequired).max(DEVICE_NAME_MAX, T.common.max(DEVICE_NAME_MAX));
export const deviceDescription = z.string().max(DEVICE_DESCRIPTION_MAX, T.common.max(DEVICE_DESCRIPTION_MAX));
export const latitude = z.coerce
  .number({ error: T.devices.serverLatitude })
  .min(-90, T.devices.serverLatitude)
  .max(90, T.devices.serverLatitude);
export const longitude = z.coerce
  .number({ error: T.devices.serverLongitude })
  .min(-180, T.devices.serverLongitude)
  .max(180, T.devices.serverLongitude);

/** A gateway UID: what serial gateways use as MQTT username and client id, and in `gw/<uid>/...` topics. */
export const gatewayUid = required(T.devices.uidRequired)
  .max(64, T.common.max(64))
  .regex(/^[A-Za-z0-9_.:-]+$/, 'UID hanya boleh berisi huruf, angka, titik, titik dua, garis bawah atau strip');

/**
 * Sensor configuration: a JSON object or array, sent as JSON text (the wizard's "Konfigurasi" field) or as JSON.
 * Stored and answered as JSON.
 */
export const sensorsJson = jsonDocument(T.devices.sensorsJson);

/** Device tags: tag category prefix → values (each category's type decides what values it takes; the server checks). */
export const deviceTags = z.record(z.string().min(1).max(32), z.array(z.string().max(64)).max(16));
export type DeviceTags = z.infer<typeof deviceTags>;

/** Online filter values of the list (Nyala = on, Mati = off). */
export const DeviceStatus = z.enum(['on', 'off']);

/** One row of the device list and the common part of every device answer. */
export const DeviceSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  serial_number: z.string(),
  category: z.number().int(),
  category_text: z.string(),
  deviceType: z.string(),
  firmware_version: z.string(),
  online: z.boolean(),
  last_online_ts: z.number().int().nullable(),
  last_offline_ts: z.number().int().nullable(),
  disabled: z.boolean(),
  tags: deviceTags,
  description: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  created_at: z.number().int(),
});
export type DeviceSummary = z.infer<typeof DeviceSummary>;

/** A device with its sensor configuration (device/get/id and the per-family gets). */
export const Device = DeviceSummary.extend({ sensors: z.unknown() });
export type Device = z.infer<typeof Device>;

/** Emma plugin application of the plugin cloud (spec 03 section 3). */
export const EmmaPluginApplication = z.object({
  emma_plugin_key: z.string(),
  emma_application_plugin_id: z.string(),
  emma_plugin_name: z.string().max(256),
});
export type EmmaPluginApplication = z.infer<typeof EmmaPluginApplication>;
