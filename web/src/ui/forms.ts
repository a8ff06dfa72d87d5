// Form helpers shared by the screens: zod issues (client side) and the envelope's errors (server side) per field.
import type { ChangeEvent, Dispatch, SetStateAction } from 'react';
import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

/** The first message per top-level field of a failed zod parse. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field && !(field in out)) out[field] = issue.message;
  }
  return out;
}

/** The envelope's `errors: [{path, message}]` of a -10 answer, per field. */
export function fieldErrorsOfEnvelope(body: unknown): FieldErrors {
  const errors = (body as { errors?: unknown } | null)?.errors;
  const out: FieldErrors = {};
  if (!Array.isArray(errors)) return out;
  for (const e of errors as { path?: unknown; message?: unknown }[]) {
    // an answer is read, not trusted: an entry without a text path and message is passed over
    if (typeof e?.path !== 'string' || typeof e.message !== 'string') continue;
    const field = e.path.split('.')[0] ?? '';
    if (field && !(field in out)) out[field] = e.message;
  }
  return out;
}

/**
 * A text field bound to one of a form's string values: value, change, its error (a blank helper line keeps the
 * field's height when there is none), full width, disabled while the form is busy.
 */
export function boundField<V extends Record<string, string>>(
  form: { values: V; setValues: Dispatch<SetStateAction<V>>; errors: FieldErrors; busy: boolean },
  name: keyof V & string,
  label: string,
) {
  return {
    name,
    label,
    value: form.values[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => form.setValues((v) => ({ ...v, [name]: e.target.value })),
    error: !!form.errors[name],
    helperText: form.errors[name] ?? ' ',
    fullWidth: true,
    disabled: form.busy,
  };
}

/** A field's error props: marked and its message shown when it has one, else its hint. */
export const errorShown = (message: string | undefined, hint?: string) => ({
  error: Boolean(message),
  helperText: message ?? hint,
});

/** A text field's value and the change that sets it and drops its error (`edited`). */
export const editedValue = (value: string, set: (value: string) => void, edited: () => void) => ({
  value,
  onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    set(e.target.value);
    edited();
  },
});
