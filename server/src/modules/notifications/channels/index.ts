// The gateway's notification channels: one line per channel, each pairing the contracts' descriptor of that code
// (contracts/src/channels/) with its transport and message (./<channel>/). A channel of contracts missing here, or one
// here contracts does not know, fails the typecheck. The transports, the channel list and the messages of a rule's
// tasks are derived from this table.
import {
  CHANNEL_CODES,
  CHANNEL_VARIABLES,
  channelOf,
  type ActionTask,
  type ChannelCode,
  type NotificationChannel,
} from '@sentra/contracts';
import type { Config } from '../../../platform/config.js';
import type { TemplateValues } from '../../tasks/templates.js';
import type { Transport } from '../transports/transport.js';
import type { ChannelMessage, ServerChannel } from './define.js';
import { email } from './email/index.js';
import { sms } from './sms/index.js';
import { webhook } from './webhook/index.js';
import { whatsapp } from './whatsapp/index.js';

export const SERVER_CHANNELS: { readonly [C in ChannelCode]: ServerChannel<C> } = {
  EMAIL: email,
  WHATSAPP: whatsapp,
  SMS: sms,
  WEBHOOK: webhook,
};

export type Transports = Partial<Record<NotificationChannel, Transport>>;

/**
 * The transports of the channels this gateway has configured: a channel whose variables are all set (config.ts stops
 * the start on half a set), or that needs none. A channel missing here keeps its messages 'not_configured'.
 */
export function createTransports(config: Config): Transports {
  const t: Transports = {};
  for (const code of CHANNEL_CODES) {
    if (!CHANNEL_VARIABLES[code].every((v) => config[v as keyof Config] !== undefined)) continue;
    t[code] = (SERVER_CHANNELS[code] as ServerChannel<ChannelCode>).transport(config as never);
  }
  return t;
}

/** The message one task of a rule's action becomes: its channel, recipient (the address field), subject and body. */
export function taskMessage(
  task: ActionTask,
  values: TemplateValues,
): ChannelMessage & { channel: NotificationChannel; recipient: string } {
  const address = channelOf(task.type).address.field;
  const message = (SERVER_CHANNELS[task.type] as ServerChannel<ChannelCode>).message(task as never, values);
  return { channel: task.type, recipient: (task as unknown as Record<string, string>)[address]!, ...message };
}
