// The "Konfigurasi" JSON text of a device (spec 03 section 5): a JSON object or array, pretty-formatted back.
export type SensorsText = { ok: true; value: Record<string, unknown> | unknown[]; pretty: string } | { ok: false };

export function parseSensorsText(text: string): SensorsText {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object')
      return { ok: true, value: value as Record<string, unknown> | unknown[], pretty: JSON.stringify(value, null, 2) };
  } catch {
    /* not JSON */
  }
  return { ok: false };
}

/** The stored configuration as the form shows it (nothing stored yet: an empty object). */
export const prettySensors = (value: unknown): string => JSON.stringify(value ?? {}, null, 2);
