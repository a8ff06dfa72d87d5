// LoRa network servers of an application (spec 03 sections 2.11, 3 "LoRa server entry"): the list the spec shows, and
// get/add/edit/remove calls of our own design (the spec does not show them). LoRa devices name one by network_server_id.
import { z } from 'zod';
import type { SysNav } from '../codes.js';
import { T } from '../text/id.js';
import { defineCall } from './define.js';
import { id } from '../models/fields.js';

export const LORA_READ: { navs: readonly SysNav[] } = { navs: ['_device_manage_', '_device_list_'] };
export const LORA_WRITE: { navs: readonly SysNav[] } = { navs: ['_device_manage_'] };
export const LORA_PAGE_SIZES = [5, 10, 25] as const;

/** A gateway MAC (6 bytes) or EUI-64 (8 bytes), with `:`/`-` separators or none; answered as AA:BB:CC:DD:EE:FF. */
export const loraMac = z
  .string({ error: T.common.required })
  .trim()
  .transform((s) => s.replace(/[:-]/g, '').toUpperCase())
  .refine((s) => /^([0-9A-F]{12}|[0-9A-F]{16})$/.test(s), T.lora.serverMacInvalid)
  .transform((s) => s.match(/../g)!.join(':'));

const fields = {
  mac: loraMac,
  name: z.string({ error: T.common.required }).trim().min(1, T.common.required).max(32, T.common.max(32)),
  /** host[:port] or URL of the network server */
  server: z.string({ error: T.common.required }).trim().min(1, T.common.required).max(256, T.common.max(256)),
  /** the network server's own application id (ChirpStack v4 application UUID): its integration's topics carry it */
  application_uuid: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, T.lora.applicationUuidInvalid)
    .nullish()
    .or(z.literal('').transform(() => null)),
};

export const LoraServer = z.object({
  id: z.number().int(),
  mac: z.string(),
  name: z.string(),
  server: z.string(),
  /** ChirpStack v4 application UUID, or null when the integration uses Sentra's numeric application id */
  application_uuid: z.string().nullable(),
  created_at: z.number().int(),
});
export type LoraServer = z.infer<typeof LoraServer>;

export const loraContract = {
  list: defineCall({
    method: 'GET',
    path: '/service/web/lora/server/list',
    summary:
      'LoRa network servers of the application, searched by MAC, name or server, one page at a time (default 10)',
    audience: 'member',
    access: LORA_READ,
    input: z.object({
      search: z.string().trim().max(64).optional(),
      page: z.coerce.number().int().min(0).max(100_000).default(0),
      size: z.coerce.number().int().min(1).max(100).default(10),
    }),
    output: z.object({
      data: z.array(LoraServer),
      total: z.number().int(),
      page: z.number().int(),
      size: z.number().int(),
    }),
  }),
  get: defineCall({
    method: 'GET',
    path: '/service/web/lora/server/get/id/{id}',
    summary: 'One LoRa network server',
    audience: 'member',
    access: LORA_READ,
    input: z.object({ id }),
    output: z.object({ data: LoraServer }),
  }),
  add: defineCall({
    method: 'POST',
    path: '/service/web/lora/server/add',
    summary: 'Adds a LoRa network server (MAC unique in the application)',
    audience: 'member',
    access: LORA_WRITE,
    input: z.object(fields),
    output: z.object({ data: LoraServer }),
    errors: { [-12]: T.lora.serverMacTaken },
    errorFields: { [T.lora.serverMacTaken]: 'mac' },
  }),
  edit: defineCall({
    method: 'POST',
    path: '/service/web/lora/server/edit',
    summary: 'Edits a LoRa network server',
    audience: 'member',
    access: LORA_WRITE,
    input: z.object({ id, ...fields }),
    output: z.object({ data: LoraServer }),
    errors: { [-12]: T.lora.serverMacTaken },
    errorFields: { [T.lora.serverMacTaken]: 'mac' },
  }),
  remove: defineCall({
    method: 'POST',
    path: '/service/web/lora/server/remove',
    summary: 'Removes a LoRa network server no device uses',
    audience: 'member',
    access: LORA_WRITE,
    input: z.object({ id }),
    output: z.object({}),
    errors: { [-12]: T.lora.serverInUse },
  }),
} as const;
