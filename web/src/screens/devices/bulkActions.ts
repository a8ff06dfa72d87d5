// The device list's bulk actions (spec 03 section 2.1 "Tindakan"): each chosen device is handled by the same call a
// single device uses (its delete, the configuration call of "Ubah Konfigurasi"), a few at a time, and every device's
// outcome is kept so the screen can say which ones failed and why.
import { CommandInput, T } from '@sentra/contracts';

/** at most this many calls at once: a 100-device selection must not open 100 requests against the gateway */
export const BULK_CONCURRENCY = 4;

export interface BulkOutcome<D> {
  device: D;
  ok: boolean;
  /** why it failed, in the server's words when it gave them */
  reason?: string;
}

/** runs `act` for every device, `limit` at a time, in the devices' order; never throws */
export async function runForEach<D>(
  devices: readonly D[],
  act: (d: D) => Promise<void>,
  limit = BULK_CONCURRENCY,
): Promise<BulkOutcome<D>[]> {
  const out: BulkOutcome<D>[] = new Array(devices.length);
  let next = 0;
  const worker = async () => {
    while (next < devices.length) {
      const i = next++;
      const device = devices[i]!;
      try {
        await act(device);
        out[i] = { device, ok: true };
      } catch (e) {
        out[i] = { device, ok: false, reason: e instanceof Error && e.message ? e.message : undefined };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, devices.length) }, worker));
  return out;
}

/** the command "Reboot" sends (a device that knows it restarts; the form stays editable, e.g. Tasmota's `Restart` 1) */
export const REBOOT_COMMAND = { sensor: 'system', configtype: 'command', param: 'reboot', value: '1' } as const;

export interface CommandForm {
  sensor: string;
  configtype: string;
  param: string;
  value: string;
}

/**
 * The command to send from the "Kontrol device" form: the value is JSON when it reads as JSON (a number, true, an
 * object), else the text itself; the fields' errors in the configuration call's own rules otherwise.
 */
export function commandOfForm(
  form: CommandForm,
): { ok: true; command: CommandInput } | { ok: false; errors: Partial<Record<keyof CommandForm, string>> } {
  const text = form.value.trim();
  let value: unknown = text;
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null) value = parsed;
    } catch {
      // plain text
    }
  }
  const parsed = CommandInput.safeParse({
    sensor: form.sensor.trim(),
    configtype: form.configtype.trim(),
    param: form.param.trim(),
    value,
  });
  if (parsed.success) return { ok: true, command: parsed.data };
  const errors: Partial<Record<keyof CommandForm, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof CommandForm;
    errors[field] ??= field === 'value' ? T.deviceData.inputError : issue.message;
  }
  return { ok: false, errors };
}
