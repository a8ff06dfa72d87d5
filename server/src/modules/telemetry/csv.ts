// CSV downloads of a device's data (spec 03 sections 2.5 "Download", 9 "Download file name"): the file name rule, the
// row format, and cells that are safe to open in a spreadsheet.
import { deviceCsvFileName } from '@sentra/contracts';
import type { CsvPoint } from './device-data.service.js';

export const CSV_HEADER = 'timestamp,time,sensor,configtype,param,subparam,datatype,value,quality\r\n';

const formats = new Map<string, Intl.DateTimeFormat>();
function parts(ts: number, timeZone: string) {
  let f = formats.get(timeZone);
  if (!f)
    formats.set(
      timeZone,
      (f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })),
    );
  const p = Object.fromEntries(f.formatToParts(ts).map((x) => [x.type, x.value]));
  return p as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string>;
}

/** spec 03 section 9: MM/DD/YYYY HH:mm:ss, 24-hour, in the zone asked for (the screen's), else the application's */
export function csvTime(ts: number, timeZone: string): string {
  const p = parts(ts, timeZone);
  return `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute}:${p.second}`;
}

/** label_YYYYMMDD_HHmmss_id_sensor_configtype_param.csv, the time being now in the same zone as the rows */
export function csvFileName(
  device: { id: number; label: string | null | undefined },
  k: { sensor: string; configtype: string; param: string },
  now: number,
  timeZone: string,
): string {
  return deviceCsvFileName(device.label, device.id, [k.sensor, k.configtype, k.param], now, timeZone);
}

/** RFC 4180 quoting; text that a spreadsheet would run as a formula is prefixed with ' */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  let s = typeof v === 'string' ? v : JSON.stringify(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRows(
  points: readonly CsvPoint[],
  k: { sensor: string; configtype: string; param: string },
  timeZone: string,
): string {
  const fixed = `${csvCell(k.sensor)},${csvCell(k.configtype)},${csvCell(k.param)}`;
  let out = '';
  for (const p of points)
    out += `${p.ts},${csvTime(p.ts, timeZone)},${fixed},${csvCell(p.subparam)},${p.datatype},${csvCell(p.value)},good\r\n`;
  return out;
}

/** content-disposition with an ASCII name and its UTF-8 form (RFC 6266) */
export const attachment = (fileName: string) =>
  `attachment; filename="${fileName.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
