// Device commands (docs/conventions.md "Commands", "Codes of the domain"): the configuration dialog's call,
// published to the device in its family's format and answered once the device replies.
import { z } from 'zod';
import { Result } from '../codes.js';
import { T } from '../text/id.js';
import { defineCall } from './define.js';
import { DEVICE_WRITE } from './devices.js';
import { id } from '../models/fields.js';

const name = z.string().min(1).max(64);

/** A configuration value: any JSON value except null and the empty string ("Input error"). */
export const commandValue = z.union(
  [
    z.number(),
    z.boolean(),
    z.string().min(1, T.deviceData.inputError).max(4096),
    z.record(z.string(), z.unknown()),
    z.array(z.unknown()),
  ],
  {
    error: T.deviceData.inputError,
  },
);

export const CommandInput = z.object({ sensor: name, configtype: name, param: name, value: commandValue });
export type CommandInput = z.infer<typeof CommandInput>;

/** What a device answered (the configuration call's `data`). */
export const CommandReply = z.object({
  /** correlation id sent with the command */
  id: z.string(),
  device_id: z.number().int(),
  sensor: z.string(),
  configtype: z.string(),
  param: z.string(),
  value: z.unknown(),
  /** when the command was sent and when the reply arrived (epoch ms) */
  sent_ts: z.number().int(),
  reply_ts: z.number().int(),
  /** the device's own answer (generic `{id, ok}`, Tasmota's RESULT, LoRa ack) */
  reply: z.unknown(),
});
export type CommandReply = z.infer<typeof CommandReply>;

/** The documented failures of every command call. */
export const COMMAND_ERRORS = {
  [Result.DEVICE_OFFLINE]: T.deviceData.commandOffline,
  [Result.DEVICE_BUSY]: T.deviceData.commandBusy,
  [Result.DEVICE_TIMEOUT]: T.deviceData.commandTimeout,
  /** the device answered, refusing the command */
  [-33]: T.deviceData.commandRefused,
} as const;
export const COMMAND_REFUSED = -33;

export const commandsContract = {
  configure: defineCall({
    method: 'POST',
    path: '/fetch/web/device/p/{id}',
    summary:
      "Sends a configuration (sensor, configtype, param, value) to the device in its family's format and answers its reply",
    audience: 'member',
    access: DEVICE_WRITE,
    input: CommandInput.extend({ id }),
    output: z.object({ data: CommandReply }),
    timeoutMs: 60_000,
    errors: COMMAND_ERRORS,
  }),
} as const;
