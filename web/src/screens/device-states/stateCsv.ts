// A state's history as CSV (the state list's Download: the spec gives no CSV call for states, so the file is made
// from the history calls in the browser, named by the download rule with `state` and the key).
import { csvCell, formatTs } from '../device-data/format.js';
import type { StateRow } from '@sentra/contracts';

export function stateCsv(rows: readonly StateRow[]): string {
  const lines = ['key,value,active,initial_ts,initial_time,latest_ts,latest_time'];
  for (const r of rows)
    lines.push(
      [
        csvCell(r.key),
        csvCell(r.value),
        r.is_null ? 'Inactive' : 'Active',
        r.initial_ts,
        formatTs(r.initial_ts),
        r.latest_ts,
        formatTs(r.latest_ts),
      ].join(','),
    );
  return lines.join('\r\n') + '\r\n';
}
