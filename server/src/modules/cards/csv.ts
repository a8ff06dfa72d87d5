// A card's data as CSV (`/fetch/web/file/csv/card/...`): every raw point of the series the card reads in its window,
// streamed in chunks read by key (series, ts > last) so no statement stays open between writes and a slow client
// only slows its own download. One column per series (time, ts, then the series labels); list and map cards, whose
// series are one per device, are written long (time, ts, device_id, label, series, value).
import type { Response } from 'express';
import type { QueryEntity } from '@sentra/contracts';
import { decodeValue } from '../telemetry/datatypes.js';
import {
  MAX_LIST_DEVICES,
  deviceIdOf,
  isStateQuery,
  seriesOf,
  stateField,
  stateSubparam,
  type EvalContext,
} from './cardQuery.js';
import { zoneOffset } from '../../platform/time/zone.js';
import type { SeriesReads, SeriesRef } from './seriesReads.js';
import type { EngineSources } from './cardQuery.js';

const CHUNK = 5000;
const FLUSH_BYTES = 64 * 1024;
/** rows one download writes at most */
export const MAX_CSV_ROWS = 2_000_000;

/** One column: a series' points, or the values a device state took (a subparam picks a field of an object value). */
export interface CsvColumn {
  label: string;
  series?: SeriesRef;
  state?: { key: string; subparam: string };
  deviceId: number;
  deviceLabel: string;
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Local ISO time with the zone's offset (what a spreadsheet shows the user). */
export function localIso(ts: number, tz: string): string {
  const off = zoneOffset(ts, tz);
  const local = new Date(ts + off).toISOString().slice(0, 23);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off) / 60_000;
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

type Row = [ts: number, value: unknown];

/** Reads one column forward: a series in chunks (by key, so no statement stays open between writes), a state whole. */
class Cursor {
  private rows: Row[] = [];
  private i = 0;
  private last: number;
  private done = false;
  constructor(
    private readonly src: { reads: SeriesReads; states: EngineSources['states']; appId: number },
    readonly col: CsvColumn,
    start: number,
    private readonly end: number,
  ) {
    this.last = start - 1;
  }
  private async read(): Promise<Row[]> {
    const { col } = this;
    if (col.series) {
      const datatype = col.series.datatype;
      const rows = await this.src.reads.rawRows(col.series, this.last + 1, this.end, CHUNK);
      if (rows.length < CHUNK) this.done = true;
      return rows.map(([ts, num, text]): Row => [ts, decodeValue(datatype, num, text)]);
    }
    this.done = true;
    if (!col.state) return [];
    const { key, subparam } = col.state;
    return (await this.src.states.history(this.src.appId, col.deviceId, key, this.last + 1, this.end)).map((h): Row => [
      h.ts,
      stateField(h.value, subparam),
    ]);
  }
  /** the current row; a promise only when the next chunk must be read */
  peek(): Row | undefined | Promise<Row | undefined> {
    if (this.i < this.rows.length) return this.rows[this.i];
    if (this.done) return undefined;
    return this.fill();
  }
  private async fill(): Promise<Row | undefined> {
    this.rows = await this.read();
    this.i = 0;
    if (this.rows.length) this.last = this.rows[this.rows.length - 1]![0];
    return this.rows[0];
  }
  next(): void {
    this.i++;
  }
}

async function write(res: Response, text: string): Promise<void> {
  if (res.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const done = () => (res.off('drain', done), res.off('close', closed), resolve());
    const closed = () => (res.off('drain', done), reject(new Error('client left')));
    res.once('drain', done);
    res.once('close', closed);
  });
}

export async function streamCsv(opts: {
  res: Response;
  src: { reads: SeriesReads; states: EngineSources['states']; appId: number };
  columns: CsvColumn[];
  start: number;
  end: number;
  tz: string;
  long: boolean;
  filename: string;
}) {
  const { res, columns, tz } = opts;
  res.status(200);
  res.setHeader('content-type', 'text/csv; charset=utf-8');
  res.setHeader('content-disposition', `attachment; filename="${opts.filename}"`);
  let buf = opts.long
    ? 'time,ts,device_id,label,series,value\n'
    : `time,ts,${columns.map((c) => csvCell(c.label)).join(',')}\n`;
  let rows = 0;
  const cursors = columns.map((c) => new Cursor(opts.src, c, opts.start, opts.end));
  try {
    if (opts.long) {
      for (const cur of cursors) {
        for (;;) {
          // awaited only when a chunk is read (a microtask per row counts in a 2-million-row download)
          let p = cur.peek();
          if (p instanceof Promise) p = await p;
          if (!p || rows >= MAX_CSV_ROWS) break;
          const c = cur.col;
          buf += `${localIso(p[0], tz)},${p[0]},${c.deviceId},${csvCell(c.deviceLabel)},${csvCell(c.label)},${csvCell(p[1])}\n`;
          if (buf.length > FLUSH_BYTES) (await write(res, buf), (buf = ''));
          cur.next();
          rows++;
        }
      }
    } else {
      // merge by time: one line per instant, a cell per series that has a point then
      while (rows < MAX_CSV_ROWS) {
        let ts = Infinity;
        for (const cur of cursors) {
          let p = cur.peek();
          if (p instanceof Promise) p = await p;
          if (p && p[0] < ts) ts = p[0];
        }
        if (ts === Infinity) break;
        let line = `${localIso(ts, tz)},${ts}`;
        for (const cur of cursors) {
          // answered from the chunk read just above
          const p = cur.peek() as Row | undefined;
          if (p && p[0] === ts) {
            line += `,${csvCell(p[1])}`;
            cur.next();
          } else line += ',';
        }
        buf += `${line}\n`;
        rows++;
        if (buf.length > FLUSH_BYTES) (await write(res, buf), (buf = ''));
      }
    }
    if (buf) await write(res, buf);
    res.end();
  } catch {
    res.destroy();
  }
}

/** The series a card's queries read, as CSV columns. */
export async function csvColumns(
  queries: QueryEntity[],
  ctx: EvalContext,
): Promise<{ columns: CsvColumn[]; long: boolean }> {
  const columns: CsvColumn[] = [];
  const add = async (q: QueryEntity, deviceId: number, deviceLabel: string) => {
    if (isStateQuery(q)) {
      return void columns.push({
        label: q.param_label || q.param || '',
        state: { key: q.param ?? '', subparam: stateSubparam(q) },
        deviceId,
        deviceLabel,
      });
    }
    for (const l of await seriesOf(q, ctx, deviceId, true))
      if (l.series) columns.push({ label: l.label, series: l.series, deviceId, deviceLabel });
  };
  let long = false;
  for (const q of queries) {
    if (q.queryType === 'device_no_id') {
      long = true;
      for (const d of (await ctx.src.directory.matching(ctx.appId, ctx.tags)).slice(0, MAX_LIST_DEVICES))
        await add(q, d.id, d.label);
    } else if (q.queryType === 'device' || q.queryType === 'graph' || q.queryType === 'three_phase') {
      const id = deviceIdOf(q, ctx);
      const d = await ctx.src.directory.device(ctx.appId, id);
      if (!d) continue;
      await add(q, id, d.label);
    }
  }
  if (columns.length > 16) long = true;
  return { columns, long };
}
