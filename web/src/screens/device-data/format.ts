// Display and file rules of the data screens (spec 03 section 9): MM/DD/YYYY HH:mm:ss (24-hour), the download file
// name, and saving a downloaded text (date-time entry: ui/DateTimeField).
import { deviceCsvFileName } from '@sentra/contracts';

const pad = (n: number) => String(n).padStart(2, '0');

/** The zone the screens show times in (the browser's, an IANA name): CSV files are asked for in it too. */
export const screenTimeZone = (): string | undefined => Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;

/** MM/DD/YYYY HH:mm:ss in the browser's time zone */
export function formatTs(ts: number | null | undefined): string {
  if (ts === null || ts === undefined) return '-';
  const d = new Date(ts);
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** label_YYYYMMDD_HHmmss_id_sensor_configtype_param.csv in the browser's zone (the server sends the same name for its CSV files) */
export function downloadFileName(
  label: string | null | undefined,
  deviceId: number,
  parts: readonly string[],
  now = Date.now(),
): string {
  return deviceCsvFileName(label, deviceId, parts, now);
}

/** the file name of a content-disposition header */
export function fileNameOf(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1]!);
  return /filename="([^"]+)"/i.exec(disposition)?.[1];
}

export function saveText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** a value as the tables print it: objects as "{...}" (opened in the tree dialog) */
export const isStructured = (v: unknown): v is object => v !== null && typeof v === 'object';
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** RFC 4180 cell */
export const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
