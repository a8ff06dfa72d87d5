// The Data dialog's history chart: the rows of the chosen window turned into Plotly traces. A number is one line; an
// object value (a param with subparams) one line per numeric subparam; a boolean a 0/1 step line; text has no chart.
// Names come from devices (subparam keys): Plotly reads a few HTML tags in text, so they are escaped.
import type { SensorDataRow } from '@sentra/contracts';

export interface HistoryTrace {
  name: string;
  x: number[];
  y: number[];
  step: boolean;
}

/** Plotly's pseudo-HTML (`<b>`, `<br>`, links) must not come from a device's text */
export const plotlyText = (s: string) =>
  s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

const numberOf = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'boolean' ? (v ? 1 : 0) : undefined;

/** Oldest first (the table lists newest first); at most `maxTraces` subparams, so a huge object cannot flood the chart. */
export function historyTraces(rows: readonly SensorDataRow[], param: string, maxTraces = 12): HistoryTrace[] {
  const byName = new Map<string, HistoryTrace>();
  const add = (name: string, ts: number, y: number, step: boolean) => {
    let t = byName.get(name);
    if (!t) {
      if (byName.size >= maxTraces) return;
      byName.set(name, (t = { name: plotlyText(name), x: [], y: [], step }));
    }
    t.x.push(ts);
    t.y.push(y);
  };
  for (const r of [...rows].sort((a, b) => a.timestamp - b.timestamp)) {
    const v = r.value;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const [sub, sv] of Object.entries(v as Record<string, unknown>)) {
        const y = numberOf(sv);
        if (y !== undefined) add(sub, r.timestamp, y, typeof sv === 'boolean');
      }
    } else {
      const y = numberOf(v);
      if (y !== undefined) add(param, r.timestamp, y, typeof v === 'boolean');
    }
  }
  return [...byName.values()];
}
