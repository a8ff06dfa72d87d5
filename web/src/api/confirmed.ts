// A confirmed action (issue 29): the one block a screen runs for "ask, then call the API" — the confirmation dialog,
// the busy overlay while the call runs, the success notice, the failure as the catalogue's message (call.ts), then what
// the screen does after success (reload the list, replace the row, show the secret).
import { useCallback, useState } from 'react';
import { useConfirm, type ConfirmRequest } from '../ui/ConfirmDialog.js';
import { notices } from '../ui/snackbar/notices.js';
import { notifyCallFailure } from './call.js';

export interface ConfirmedAction<R> {
  /** the question; answering 'Batal' (or closing the dialog) does nothing at all */
  ask: ConfirmRequest;
  /**
   * the call: callOrThrow (with `failed` as its fallback) or a *Calls.ts function, so that a failure arrives as a
   * CallError carrying the catalogue's message
   */
  run: (failed: string) => Promise<R>;
  /** the success notice (none when the screen shows its result another way) */
  success?: string | ((result: R) => string);
  /** the screen's failure text: callOrThrow's fallback, and the notice for a failure that is not a CallError */
  failed: string;
  /** after success, still busy: reload the list, replace the row, navigate */
  done?: (result: R) => unknown;
  /** after either outcome, no longer busy: a list that reloads whatever happened */
  settled?: () => unknown;
}

/**
 * `act(action)` asks, and on 'Ya' runs the call with `busy` set until the success work (`done`) has finished; it answers
 * whether the action ran and succeeded. `busy` is for the screen's loading overlay and to disable its buttons.
 */
export function useConfirmedAction() {
  const confirm = useConfirm();
  const [busy, setBusy] = useState(false);

  const act = useCallback(
    async <R>(action: ConfirmedAction<R>): Promise<boolean> => {
      if (!(await confirm(action.ask))) return false;
      setBusy(true);
      let result: R;
      try {
        result = await action.run(action.failed);
      } catch (e) {
        setBusy(false);
        notifyCallFailure(e, action.failed);
        await action.settled?.();
        return false;
      }
      const success = typeof action.success === 'function' ? action.success(result) : action.success;
      if (success) notices.success(success);
      try {
        // the success work's own failures (a reload) are its own to report: the action itself did succeed
        await action.done?.(result);
      } finally {
        setBusy(false);
      }
      await action.settled?.();
      return true;
    },
    [confirm],
  );

  return { busy, act };
}
