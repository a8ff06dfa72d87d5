// The notification channels, one descriptor each (./define.ts): adding a channel is its descriptor here plus its
// transport on the server (server/src/modules/notifications/channels/). The order is the rule form's and the answers'.
import type { AnyChannelDescriptor } from './define.js';
import { email } from './email.js';
import { sms } from './sms.js';
import { webhook } from './webhook.js';
import { whatsapp } from './whatsapp.js';

export const CHANNELS = [email, whatsapp, sms, webhook] as const;

type Channels = typeof CHANNELS;
export type ChannelCode = Channels[number]['code'];
export const CHANNEL_CODES = CHANNELS.map((c) => c.code) as unknown as readonly [ChannelCode, ...ChannelCode[]];

/** a channel's descriptor by its code */
export type ChannelOf<C extends ChannelCode> = Extract<Channels[number], { code: C }>;
const byCode = new Map<string, Channels[number]>(CHANNELS.map((c) => [c.code, c]));
export function channelOf<C extends ChannelCode>(code: C): ChannelOf<C> {
  return byCode.get(code) as ChannelOf<C>;
}
/** a channel's name in the console's texts (an unknown code as it is) */
export const channelLabel = (code: string | null | undefined): string => byCode.get(code ?? '')?.label ?? code ?? '';

/** The task of a rule's action for one channel: its type, address, optional fields and content. */
export type ChannelTask<D extends AnyChannelDescriptor> = { type: D['code']; content?: string } & {
  [K in D['address']['field']]: string;
} & { [K in D['optional'][number]['field']]?: string };
/** a task of any channel (one member per channel: `type` tells which) */
export type AnyChannelTask = Channels[number] extends infer D
  ? D extends AnyChannelDescriptor
    ? ChannelTask<D>
    : never
  : never;

/** the text fields of every channel's task (the rule form's draft holds them all) */
export type ChannelTaskField = Channels[number] extends infer D
  ? D extends AnyChannelDescriptor
    ? D['address']['field'] | D['optional'][number]['field']
    : never
  : never;
export const CHANNEL_TASK_FIELDS = [
  ...new Set(CHANNELS.flatMap((c) => [c.address.field, ...c.optional.map((o) => o.field)])),
] as ChannelTaskField[];

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** every channel's environment variables with their rules, for the gateway's configuration */
export const CHANNEL_SETTINGS = Object.assign({}, ...CHANNELS.map((c) => c.settings)) as UnionToIntersection<
  Channels[number]['settings']
>;

/**
 * The gateway's environment variables that configure each channel (all of them, or the channel stays unconfigured and
 * its messages 'not_configured'). A channel with none is always configured.
 */
export const CHANNEL_VARIABLES = Object.fromEntries(CHANNELS.map((c) => [c.code, c.variables])) as Record<
  ChannelCode,
  readonly string[]
>;
/** variables whose value never appears in an error message */
export const CHANNEL_SECRETS: readonly string[] = CHANNELS.flatMap((c) => c.secrets);
