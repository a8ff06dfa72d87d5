// Form helpers shared by the screens: zod issues (client side) and the envelope's errors (server side) per field.
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
  const errors = (body as { errors?: { path: string; message: string }[] } | null)?.errors ?? [];
  const out: FieldErrors = {};
  for (const e of errors) {
    const field = e.path.split('.')[0] ?? '';
    if (field && !(field in out)) out[field] = e.message;
  }
  return out;
}
