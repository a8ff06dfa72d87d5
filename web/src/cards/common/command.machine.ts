// The command flow of every control card (spec 02 sections 4 and 8): idle → confirming (when the card asks) →
// sending → success | failed (offline, busy, timeout, refused, other) → idle. The network call is the named actor `send`
// (tests replace it with .provide()); components only send events and read the snapshot. Outcomes are emitted as
// notices with the section 8 words.
import { assign, emit, fromPromise, setup } from 'xstate';
import { COMMAND_REFUSED, Result, T } from '@sentra/contracts';

const c = T.dashboards.commands;

export type CommandFailure = 'offline' | 'busy' | 'timeout' | 'refused' | 'other';

export type CommandOutcome = { ok: true } | { ok: false; reason: CommandFailure; message?: string };

export interface CommandRequest {
  /** undefined for buttons (they send their id only) */
  value?: unknown;
  device_id?: number;
  /** what a device screen's command sets (sensor, configtype, param); a card's query names it instead */
  target?: { sensor: string; configtype: string; param: string };
}

export interface CommandContext {
  confirm: boolean;
  pending?: CommandRequest;
  last?: CommandRequest;
  reason?: CommandFailure;
  message?: string;
}

export type CommandEvent =
  { type: 'SEND'; request: CommandRequest } | { type: 'CONFIRM' } | { type: 'CANCEL' } | { type: 'DISMISS' };

export interface CommandNotice {
  type: 'notice';
  level: 'success' | 'error';
  message: string;
}

/** "Kirim perintah gagal" plus the reason's words of section 8. */
export function failureText(reason: CommandFailure): string {
  const detail =
    reason === 'offline'
      ? c.offline
      : reason === 'busy'
        ? c.busy
        : reason === 'timeout'
          ? c.timeout
          : reason === 'refused'
            ? c.refused
            : '';
  return detail ? `${c.failed} ${detail}` : c.failed;
}

/** The reason of a failed call: the documented codes of a 400 answer, or our own time-out of the 60 s call. */
export function reasonOf(answer: { code: number; failure?: string; body?: unknown }): CommandFailure {
  if (answer.failure === 'timeout') return 'timeout';
  const result = (answer.body as { response_result?: unknown } | null | undefined)?.response_result;
  if (answer.code === 400) {
    if (result === Result.DEVICE_OFFLINE) return 'offline';
    if (result === Result.DEVICE_BUSY) return 'busy';
    if (result === Result.DEVICE_TIMEOUT) return 'timeout';
    // the device answered, refusing (a Tasmota "Command Unknown", a power lock)
    if (result === COMMAND_REFUSED) return 'refused';
  }
  return 'other';
}

/** How long a success or failure stays on the card's status line before it returns to idle. */
export const RESULT_SHOWN_MS = 4000;

/** A request while idle or showing a result: held, then confirmed first when the card asks, else sent. */
const SEND_REQUEST = [
  { guard: 'needsConfirmation' as const, target: 'confirming', actions: 'holdRequest' as const },
  { target: 'sending', actions: 'holdRequest' as const },
];

export const commandMachine = setup({
  types: {
    context: {} as CommandContext,
    events: {} as CommandEvent,
    input: {} as { confirm?: boolean },
    emitted: {} as CommandNotice,
  },
  actors: {
    send: fromPromise<CommandOutcome, CommandRequest>(async () => ({ ok: false, reason: 'other' })),
  },
  actions: {
    holdRequest: assign({ pending: ({ event }) => (event as Extract<CommandEvent, { type: 'SEND' }>).request }),
  },
  guards: {
    needsConfirmation: ({ context }) => context.confirm,
  },
}).createMachine({
  id: 'command',
  context: ({ input }) => ({ confirm: input.confirm ?? false }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        SEND: SEND_REQUEST,
      },
    },
    confirming: {
      on: {
        CONFIRM: 'sending',
        CANCEL: { target: 'idle', actions: assign({ pending: undefined }) },
      },
    },
    sending: {
      entry: assign({ reason: undefined, message: undefined }),
      invoke: {
        src: 'send',
        input: ({ context }) => context.pending ?? {},
        onDone: [
          {
            guard: ({ event }) => event.output.ok,
            target: 'success',
            actions: assign({ last: ({ context }) => context.pending, pending: undefined }),
          },
          {
            target: 'failed',
            actions: assign(({ context, event }) => {
              const out = event.output as Extract<CommandOutcome, { ok: false }>;
              return { reason: out.reason, message: out.message, last: context.pending, pending: undefined };
            }),
          },
        ],
        onError: { target: 'failed', actions: assign({ reason: 'other' as const, pending: undefined }) },
      },
    },
    success: {
      entry: emit({ type: 'notice', level: 'success', message: c.success } as CommandNotice),
      after: { [RESULT_SHOWN_MS]: 'idle' },
      on: {
        DISMISS: 'idle',
        SEND: SEND_REQUEST,
      },
    },
    failed: {
      entry: emit(
        ({ context }) =>
          ({ type: 'notice', level: 'error', message: failureText(context.reason ?? 'other') }) as CommandNotice,
      ),
      after: { [RESULT_SHOWN_MS]: 'idle' },
      on: {
        DISMISS: 'idle',
        SEND: SEND_REQUEST,
      },
    },
  },
});

/** The status line a card shows for a machine state. */
export function commandStatusText(state: string, reason?: CommandFailure): string | undefined {
  if (state === 'sending') return T.cardViews.sending;
  if (state === 'success') return c.success;
  if (state === 'failed') return failureText(reason ?? 'other');
  return undefined;
}
