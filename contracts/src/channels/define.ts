// A notification channel's descriptor: the part of a channel that server and web share (its code, name, address,
// the fields of its task and their form, and the gateway's environment variables that configure it). The rule
// contracts, the task type list, the rule form and the gateway's configuration are derived from the descriptors
// (./index.ts); the server's transport of each channel is in server/src/modules/notifications/channels/.
import { z } from 'zod';

/** A text field of a channel's task in the rule form (an address, a subject). */
export interface ChannelField<F extends string = string> {
  /** the key in the task's JSON and in the form's draft */
  field: F;
  label: string;
  placeholder?: string;
  /** the input's `type` (e.g. 'email'); text when absent */
  inputType?: string;
}

export interface ChannelDescriptor<
  C extends string = string,
  A extends string = string,
  O extends string = string,
  S extends z.ZodRawShape = z.ZodRawShape,
> {
  /** the channel's code: a task's `type` and a message's `channel` */
  code: C;
  /** its name in the console's texts ("Kanal WhatsApp belum diatur") */
  label: string;
  /** its name in the gateway's start-up messages ("required for email notifications") */
  envName: string;
  /** the task's address field (required), its rule and a valid address (the derivation tests send to it) */
  address: ChannelField<A> & { schema: z.ZodType<string>; example: string };
  /** the task's further text fields: one-line templates (RULE_LIMITS.subject), left out when blank */
  optional: readonly ChannelField<O>[];
  /** whether a blank content is the default message (T.rules.defaultContent), shown as the content's placeholder */
  defaultContent: boolean;
  /** the gateway's environment variables the channel reads, with their rules (read once at start) */
  settings: S;
  /** the variables that configure it: all set or none (half is a start error); none = always configured */
  variables: readonly (keyof S & string)[];
  /** variables whose value never appears in an error message */
  secrets: readonly (keyof S & string)[];
}

/** any channel's descriptor (the settings' keys make the type invariant in them, hence `any`) */
export type AnyChannelDescriptor = ChannelDescriptor<string, string, string, any>;

/** Declares a descriptor, keeping its literal types (the task type and the settings' keys derive from them). */
export const defineChannel = <
  const C extends string,
  const A extends string,
  const O extends string = never,
  S extends z.ZodRawShape = z.ZodRawShape,
>(
  d: ChannelDescriptor<C, A, O, S>,
) => d;

/** `on`/`off` switches among the settings */
export const onOff = z.enum(['on', 'off']);
