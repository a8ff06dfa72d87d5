// A control card's command flow: the command machine with its `send` actor bound to POST /fetch/web/p/{dashboard}/{key}
// (60 s), outcomes pushed to the notification queue with the section 8 words.
import { useEffect, useMemo } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { contracts } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { notices } from '../../ui/snackbar/notices.js';
import { useCardsReadOnly } from './readOnly.js';
import {
  commandMachine,
  commandStatusText,
  reasonOf,
  type CommandOutcome,
  type CommandRequest,
} from './command.machine.js';

export async function sendCardCommand(
  dashboardId: number,
  componentKey: string,
  request: CommandRequest,
): Promise<CommandOutcome> {
  const input: Record<string, unknown> = { dashboardId, componentKey };
  // "value (only when not null)"
  if (request.value !== undefined && request.value !== null) input.value = request.value;
  if (request.device_id !== undefined) input.device_id = request.device_id;
  const r = await api.call(contracts.cards.command, input as never);
  if (isOk(r)) return { ok: true };
  return { ok: false, reason: reasonOf(r), message: (r.body as { message?: string } | null)?.message };
}

export function useCommand(dashboardId: number, componentKey: string, opts: { confirm?: boolean } = {}) {
  const machine = useMemo(
    () =>
      commandMachine.provide({
        actors: {
          send: fromPromise<CommandOutcome, CommandRequest>(({ input }) =>
            sendCardCommand(dashboardId, componentKey, input),
          ),
        },
      }),
    [dashboardId, componentKey],
  );
  const [snapshot, send, actor] = useMachine(machine, { input: { confirm: opts.confirm ?? false } });
  useEffect(() => {
    const sub = actor.on('notice', (n) => notices.push(n.level, n.message));
    return () => sub.unsubscribe();
  }, [actor]);
  const state = String(snapshot.value);
  // a card shown to be arranged or previewed sends nothing, whatever its view does
  const readOnly = useCardsReadOnly();
  return {
    readOnly,
    state,
    busy: state === 'sending',
    confirming: state === 'confirming',
    statusText: commandStatusText(state, snapshot.context.reason),
    failed: state === 'failed',
    succeeded: state === 'success',
    send: (request: CommandRequest) => {
      if (!readOnly) send({ type: 'SEND', request });
    },
    confirm: () => send({ type: 'CONFIRM' }),
    cancel: () => send({ type: 'CANCEL' }),
  };
}
