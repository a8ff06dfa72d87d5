// Device state calls (spec 03 sections 2.6, 3 "State row", 7 "States"): current key/value states of a device, a
// state's history by time range or newest N, and deleting a state with its history.
import { z } from 'zod';
import { T } from '../text/id.js';
import { defineCall } from './define.js';
import { DEVICE_READ, DEVICE_WRITE } from './devices.js';
import { id, INSTANT_MAX_MS } from '../models/fields.js';
import { DOWNLOAD_NDATA_MAX, rangeInOrder } from './device-data.js';

export const stateKey = z.string().min(1).max(64);
const epochMs = z.coerce.number({ error: T.common.required }).int().min(0).max(INSTANT_MAX_MS);

/** spec "State row"; `is_null` true = Inactive. */
export const StateRow = z.object({
  key: z.string(),
  value: z.unknown(),
  is_null: z.boolean(),
  initial_ts: z.number().int(),
  latest_ts: z.number().int(),
});
export type StateRow = z.infer<typeof StateRow>;

/** value periods one range answer carries at most (the newest of the range; a download reads on page by page) */
export const STATE_RANGE_MAX = 5000;

/**
 * The one order of state keys: by UTF-16 code unit, the same on every machine and locale. The server lists states in
 * it and the list's live updates keep it, so a live report never moves rows around.
 */
export const compareStateKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const statesContract = {
  list: defineCall({
    method: 'GET',
    path: '/service/web/state/list/device',
    summary: 'Current states of a device, by key, with its label',
    audience: 'member',
    access: DEVICE_READ,
    input: z.object({ device_id: id }),
    output: z.object({ states: z.array(StateRow), device_label: z.string(), device_id: z.number().int() }),
  }),
  periodic: defineCall({
    method: 'GET',
    path: '/service/web/state/list/data/periodic',
    summary: `Value periods of a state overlapping start..end (epoch ms), newest first, at most ${STATE_RANGE_MAX} (the newest; \`truncated\` when older ones were left out: ask again with end before the oldest returned). Any range: the answer is bounded by its count`,
    audience: 'member',
    access: DEVICE_READ,
    input: z
      .object({ device_id: id, key: stateKey, start: epochMs, end: epochMs })
      .refine(rangeInOrder, { message: T.deviceData.rangeOrder, path: ['end'] }),
    output: z.object({ state_data: z.array(StateRow), truncated: z.boolean() }),
  }),
  newest: defineCall({
    method: 'GET',
    path: '/service/web/state/list/data/newest',
    summary: `The newest n (1–${DOWNLOAD_NDATA_MAX}) value periods of a state, newest first`,
    audience: 'member',
    access: DEVICE_READ,
    input: z.object({
      device_id: id,
      key: stateKey,
      n: z.coerce.number().int().min(1).max(DOWNLOAD_NDATA_MAX).default(50),
    }),
    output: z.object({ state_data: z.array(StateRow) }),
  }),
  remove: defineCall({
    method: 'POST',
    path: '/service/web/state/delete',
    summary: 'Deletes a state of a device and its history (404 when the device has no such state)',
    audience: 'member',
    access: DEVICE_WRITE,
    input: z.object({ device_id: id, key: stateKey }),
    output: z.object({}),
  }),
} as const;
