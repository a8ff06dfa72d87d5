// The one way a screen calls the API (issue 29): a contract entry in, its output out, a failure turned into the
// catalogue's message (outcome.ts) once. Two shapes of the same rule:
//   callOrThrow   for *Calls.ts modules and machines: the output, or a thrown CallError (message, the form's field
//                 errors, HTTP status, envelope code) the caller shows where it belongs (a form, a dialog)
//   callAndNotify for screens: { ok, value }, a failure shown as an error notice (ui/snackbar); after a 401 or 402
//                 nothing is shown, the global reactions are already leaving the page (sign-in, payment)
// `useLoad` runs a load while the screen is mounted, handing its result over only if the screen is still there;
// `useListCall` keeps a list loaded on mount and reloaded after a change.
import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { T, type CallDef, type InputOf, type OutputOf } from '@sentra/contracts';
import { api } from './client.js';
import { failureMessage, type MessageRules } from './outcome.js';
import { isOk, resultCode, type ApiResult, type CallOptions } from './request.js';
import { fieldErrorsOfEnvelope, type FieldErrors } from '../ui/forms.js';
import { notices } from '../ui/snackbar/notices.js';

/** One entry of a -10 answer's `errors`, its path whole (a JSON document's inner field, not only the form field). */
export interface Problem {
  path: string;
  message: string;
}

export class CallError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors = {},
    readonly status = 0,
    readonly code?: number,
    /** the answer's `errors` as sent, for a screen that shows where inside a document the problem is */
    readonly problems: readonly Problem[] = [],
  ) {
    super(message);
    this.name = 'CallError';
  }
}

/** the envelope's `errors` that have a path and a message */
function problemsOf(body: unknown): Problem[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter((e): e is Problem => typeof e?.path === 'string' && typeof e?.message === 'string');
}

/**
 * The failure's message. With a `fallback` text: for a code the contract documents (`def.errors`) the server's own
 * message (a catalogue text; one code such as -12 may mean a taken serial or a taken UID), else the contract's text;
 * otherwise the fallback (network, time-out and 5xx texts as everywhere). With MessageRules the screen names the
 * refusals itself (`{ fallback }` alone: its text for every refusal, as callAndNotify does). A -10's field messages
 * travel in `fieldErrors` for the form, and so does a message the contract assigns to a field (`def.errorFields`).
 */
export function callFailure(r: ApiResult<unknown>, def: CallDef | undefined, rules: MessageRules | string): CallError {
  const code = resultCode(r);
  const body = r.body as { message?: unknown } | null;
  const refused = r.code === 400;
  const fields = refused ? fieldErrorsOfEnvelope(r.body) : {};
  const byCode = typeof rules === 'string' ? def?.errors : rules.byCode;
  const fallback = typeof rules === 'string' ? rules : rules.fallback;
  let message = failureMessage(r, { byCode, fallback });
  if (refused && code !== undefined && byCode?.[code] && typeof body?.message === 'string' && body.message)
    message = body.message;
  // the field is named by what the server said, so it shows whatever text the screen picked for the notice
  const said = refused && typeof body?.message === 'string' ? body.message : '';
  const field = said ? def?.errorFields?.[said] : undefined;
  if (field) fields[field] = said;
  return new CallError(message, fields, r.code, code, refused ? problemsOf(r.body) : []);
}

type Input<D extends CallDef> = InputOf<D> | undefined;

/**
 * The call's output, or a CallError with the catalogue's message: `rules` is the fallback text (the contract's
 * documented codes first), or the screen's own MessageRules (see callFailure).
 */
export async function callOrThrow<D extends CallDef>(
  def: D,
  input: Input<D>,
  rules: MessageRules | string,
  opts?: CallOptions,
): Promise<OutputOf<D>> {
  const r = await api.call(def, input as InputOf<D>, opts);
  if (!isOk(r)) throw callFailure(r, def, rules);
  return r.body as OutputOf<D>;
}

/** A 401 or 402: the global reactions handle it (sign-in, payment), a screen says nothing more. */
export const sessionEnded = (r: Pick<ApiResult<unknown>, 'code'>) => r.code === 401 || r.code === 402;

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

/**
 * Shows a thrown failure (callOrThrow's CallError) as an error notice: its catalogue message, or `fallback` for any
 * other error; nothing after a 401 or 402, as notifyFailure.
 */
export function notifyCallFailure(e: unknown, fallback: string): void {
  if (e instanceof CallError && sessionEnded({ code: e.status })) return;
  notices.error(e instanceof CallError && e.message ? e.message : fallback);
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

/**
 * A list call's rows (`data`), loaded on mount and again by `load()` after a change: null until the first answer, none
 * after a failed first load, the rows shown before after a failed reload (its failure is a notice).
 */
export function useListCall<D extends CallDef>(def: D) {
  type Row = OutputOf<D> extends { data: (infer R)[] } ? R : never;
  const [items, setItems] = useState<Row[] | null>(null);
  const load = useCallback(async () => {
    const o = await callAndNotify(def);
    setItems((prev) => (o.ok ? (o.value as { data: Row[] }).data : (prev ?? [])));
  }, [def]);
  useEffect(() => {
    void load();
  }, [load]);
  return { items, setItems, load };
}
