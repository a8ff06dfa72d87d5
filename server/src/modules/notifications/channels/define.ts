// A notification channel on the gateway: the transport its configuration sets up and the message a rule's task
// becomes. The shared part (code, address, task fields, form, environment variables) is the channel's descriptor in
// contracts (contracts/src/channels/); ./index.ts pairs each descriptor with one of these.
import { renderTemplate, T, type ActionTask, type ChannelCode, type ChannelOf } from '@sentra/contracts';
import type { Config } from '../../../platform/config.js';
import type { TemplateValues } from '../../tasks/templates.js';
import type { Transport } from '../transports/transport.js';

/** the configuration as a channel's transport sees it: the variables that configure the channel all set */
export type ConfiguredFor<C extends ChannelCode> = Config & {
  [K in ChannelOf<C>['variables'][number]]-?: NonNullable<Config[K]>;
};

export interface ChannelMessage {
  subject?: string;
  body: string;
}

export interface ServerChannel<C extends ChannelCode> {
  /** the channel's transport, made once at start when its variables are all set (none: always) */
  transport(config: ConfiguredFor<C>): Transport;
  /** a task's subject and body, its templates filled (the recipient is the task's address field) */
  message(task: Extract<ActionTask, { type: C }>, values: TemplateValues): ChannelMessage;
}

export const defineServerChannel = <C extends ChannelCode>(c: ServerChannel<C>) => c;

/** a template filled; one left out or blank is `fallback`, never an empty message */
export const filled = (text: string | undefined, fallback: string, values: TemplateValues) =>
  renderTemplate(text?.trim() ? text : fallback, values);

/** a text message: the content, the default one (what fired, where, the value and when) when blank */
export const textMessage = (task: { content?: string }, values: TemplateValues): ChannelMessage => ({
  body: filled(task.content, T.rules.defaultContent, values),
});
