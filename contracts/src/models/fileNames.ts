// The names of downloaded CSV files, one rule each for the gateway's Content-Disposition and the browser's saved file:
// a device param's or state's CSV (spec 03 section 9 "Download file name") and a dashboard card's (spec 02 section 4
// "Download"). Both carry a YYYYMMDD_HHmmss stamp in a time zone (the runtime's own when none is given).
import { DOWNLOAD_DEFAULT_LABEL } from '../http/device-data.js';

const stamps = new Map<string, Intl.DateTimeFormat>();
function stampFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = stamps.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    };
    try {
      f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat('en-GB', options);
    }
    stamps.set(key, f);
  }
  return f;
}

/** YYYYMMDD_HHmmss of `at` in `timeZone` (the runtime's zone when absent or unknown) */
export function fileTimestamp(at: number, timeZone?: string): string {
  const p = Object.fromEntries(
    stampFormat(timeZone)
      .formatToParts(new Date(at))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}${p.month}${p.day}_${p.hour}${p.minute}${p.second}`;
}

/** a name part safe in any file system: letters, digits, '.', '_' and '-' only */
const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || '_';

/**
 * label_YYYYMMDD_HHmmss_id_part_part….csv: a device's param (sensor, configtype, param) or state ('state', key) CSV,
 * the label defaulting to "Data_perangkat".
 */
export function deviceCsvFileName(
  label: string | null | undefined,
  deviceId: number,
  parts: readonly string[],
  at: number,
  timeZone?: string,
): string {
  const head = label?.trim() ? fileSafe(label.trim()) : DOWNLOAD_DEFAULT_LABEL;
  return [head, fileTimestamp(at, timeZone), String(deviceId), ...parts.map(fileSafe)].join('_') + '.csv';
}

/**
 * A card's CSV ("Chart_ or Data_ plus the card key and a timestamp"): Chart_ when the card's value query is a graph
 * query, else Data_.
 */
export function cardCsvFileName(
  key: string,
  model: { value?: unknown } | undefined,
  at: number,
  timeZone?: string,
): string {
  const query = model?.value as { queryType?: unknown } | undefined;
  const prefix = query?.queryType === 'graph' ? 'Chart_' : 'Data_';
  return `${prefix}${key}_${fileTimestamp(at, timeZone)}.csv`;
}
