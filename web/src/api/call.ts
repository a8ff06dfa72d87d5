// The one way a screen calls the API (issue 29): a contract entry in, its output out, a failure turned into the
// catalogue's message (outcome.ts) once. Two shapes of the same rule:
//   callOrThrow   for *Calls.ts modules and machines: the output, or a thrown CallError (message, the form's field
//                 errors, HTTP status, envelope code) the caller shows where it belongs (a form, a dialog)
//   callAndNotify for screens: { ok, value }, a failure shown as an error notice (ui/snackbar); after a 401 or 402
//                 nothing is shown, the global reactions are already leaving the page (sign-in, payment)
// `useLoad` runs a load while the screen is mounted, handing its result over only if the screen is still there.
import { useEffect, useRef, type DependencyList } from 'react';
import { T, type CallDef, type InputOf, type OutputOf } from '@sentra/contracts';
import { api } from './client.js';
import { failureMessage, type MessageRules } from './outcome.js';
import { isOk, resultCode, type ApiResult, type CallOptions } from './request.js';
import { fieldErrorsOfEnvelope, type FieldErrors } from '../ui/forms.js';
import { notices } from '../ui/snackbar/notices.js';

export class CallError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors = {},
    readonly status = 0,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

/**
 * The failure's message: for a documented code the server's own message (a catalogue text; one code such as -12 may
 * mean a taken serial or a taken UID), else the contract's text; otherwise the screen's fallback (network, time-out and
 * 5xx texts as everywhere). A -10's field messages travel in `fieldErrors` for the form.
 */
export function callFailure(r: ApiResult<unknown>, def: CallDef | undefined, fallback: string): CallError {
  const code = resultCode(r);
  const body = r.body as { message?: unknown } | null;
  const fields = r.code === 400 ? fieldErrorsOfEnvelope(r.body) : {};
  let message = failureMessage(r, { byCode: def?.errors, fallback });
  if (r.code === 400 && code !== undefined && def?.errors?.[code] && typeof body?.message === 'string' && body.message)
    message = body.message;
  if (code === -12 && message === T.devices.serverSerialTaken) fields.serial_number = message;
  if (code === -12 && message === T.devices.serverTopicTaken) fields.topic = message;
  return new CallError(message, fields, r.code, code);
}

type Input<D extends CallDef> = InputOf<D> | undefined;

/** The call's output, or a CallError with the catalogue's message (`fallback` when no rule names the failure). */
export async function callOrThrow<D extends CallDef>(
  def: D,
  input: Input<D>,
  fallback: string,
  opts?: CallOptions,
): Promise<OutputOf<D>> {
  const r = await api.call(def, input as InputOf<D>, opts);
  if (!isOk(r)) throw callFailure(r, def, fallback);
  return r.body as OutputOf<D>;
}

/** A 401 or 402: the global reactions handle it (sign-in, payment), a screen says nothing more. */
export const sessionEnded = (r: ApiResult<unknown>) => r.code === 401 || r.code === 402;

/** Which failures a screen shows: by default every one but an ended session; a screen may show fewer (never more). */
export type ShownWhen = (r: ApiResult<unknown>) => boolean;
const unlessSessionEnded: ShownWhen = (r) => !sessionEnded(r);

/** Shows a failed call's message as an error notice, unless the session ended (or `shown` says no). */
export function notifyFailure(
  r: ApiResult<unknown>,
  rules: MessageRules | string = T.shell.loadFailed,
  shown: ShownWhen = unlessSessionEnded,
): void {
  if (!sessionEnded(r) && shown(r))
    notices.error(failureMessage(r, typeof rules === 'string' ? { fallback: rules } : rules));
}

/** A failure carries its HTTP status (0: no answer) for screens that tell "not found" from "failed". */
export type Called<O> = { ok: true; value: O } | { ok: false; sessionEnded: boolean; status: number };

/** `shown`: which failures become a notice (see ShownWhen); the rest are CallOptions of the request. */
export type NotifyOptions = CallOptions & { shown?: ShownWhen };

/** The call's output, or its failure shown as an error notice (`rules`: the fallback text, default "load failed"). */
export async function callAndNotify<D extends CallDef>(
  def: D,
  input?: Input<D>,
  rules: MessageRules | string = T.shell.loadFailed,
  { shown, ...opts }: NotifyOptions = {},
): Promise<Called<OutputOf<D>>> {
  const r = await api.call(def, input as InputOf<D>, opts);
  if (isOk(r)) return { ok: true, value: r.body as OutputOf<D> };
  notifyFailure(r, rules, shown);
  return { ok: false, sessionEnded: sessionEnded(r), status: r.code };
}

/** Runs `load` when `deps` change and hands its result to `then` only while the screen is still mounted. */
export function useLoad<T>(load: () => Promise<T>, then: (result: T) => void, deps: DependencyList): void {
  const handler = useRef(then);
  handler.current = then;
  useEffect(() => {
    let live = true;
    void load().then((result) => {
      if (live) handler.current(result);
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
