// A device screen's command flow: the cards' command machine (idle → sending → success | failed) with its `send`
// actor bound to the configuration call `POST /fetch/web/device/p/{id}`, so the answers read as on a control card
// (success, offline -30, busy -31, time-out -32, refused -33). One notice topic per device: a result replaces the last.
import { useEffect, useMemo } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { contracts, type CommandTarget } from '@sentra/contracts';
import { api } from '../../../api/client.js';
import { isOk } from '../../../api/request.js';
import { notices } from '../../../ui/snackbar/notices.js';
import {
  commandMachine,
  commandStatusText,
  reasonOf,
  type CommandOutcome,
  type CommandRequest,
} from '../../../cards/common/command.machine.js';

export async function sendDeviceCommand(
  deviceId: number,
  target: CommandTarget,
  value: unknown,
): Promise<CommandOutcome> {
  const r = await api.call(contracts.commands.configure, { id: deviceId, ...target, value } as never);
  if (isOk(r)) return { ok: true };
  return { ok: false, reason: reasonOf(r), message: (r.body as { message?: string } | null)?.message };
}

export function useDeviceCommand(deviceId: number) {
  const machine = useMemo(
    () =>
      commandMachine.provide({
        actors: {
          send: fromPromise<CommandOutcome, CommandRequest>(({ input }) =>
            sendDeviceCommand(deviceId, input.target!, input.value),
          ),
        },
      }),
    [deviceId],
  );
  const [snapshot, send, actor] = useMachine(machine, { input: { confirm: false } });
  useEffect(() => {
    const about = notices.about(`device-command:${deviceId}`);
    const sub = actor.on('notice', (n) => about[n.level](n.message));
    return () => sub.unsubscribe();
  }, [actor, deviceId]);
  const state = String(snapshot.value);
  const request = snapshot.context.pending ?? snapshot.context.last;
  return {
    state,
    busy: state === 'sending',
    statusText: commandStatusText(state, snapshot.context.reason),
    /** the command the status line is about */
    request,
    send: ({ sensor, configtype, param }: CommandTarget, value: unknown) =>
      send({ type: 'SEND', request: { target: { sensor, configtype, param }, value } }),
  };
}
