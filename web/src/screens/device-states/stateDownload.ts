// The state list's Download (spec 03 section 2.6): a state's history as CSV, made in the browser from the history calls
// (the spec gives no CSV call for states). By Waktu the whole range is read page by page, newest page first, so a
// long range is complete; the file lists the periods oldest first, its times in the screen's zone.
import { contracts, T, type StateRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { notices } from '../../ui/snackbar/notices.js';
import type { DownloadChoice } from '../device-data/DownloadDialog.js';
import { downloadFailedText } from '../device-data/download.js';
import { downloadFileName, saveText } from '../device-data/format.js';
import { stateCsv } from './stateCsv.js';

type Fail = { ok: false; failed: Parameters<typeof downloadFailedText>[0] };

/** every value period of `key` overlapping start..end, newest first: pages of the newest periods until one is complete */
export async function allPeriods(deviceId: number, key: string, start: number, end: number): Promise<{ ok: true; rows: StateRow[] } | Fail> {
  const rows: StateRow[] = [];
  const seen = new Set<number>();
  let to = end;
  for (;;) {
    const r = await api.call(contracts.states.periodic, { device_id: deviceId, key, start, end: to });
    if (!isOk(r)) return { ok: false, failed: r };
    for (const p of r.body.state_data) if (!seen.has(p.initial_ts)) (seen.add(p.initial_ts), rows.push(p));
    const oldest = r.body.state_data.at(-1);
    if (!r.body.truncated || !oldest) return { ok: true, rows };
    // on from just before the oldest period shown (never before `start`: the period going at `start` comes last)
    to = Math.max(start, oldest.initial_ts - 1);
  }
}

export async function downloadStateCsv(device: { id: number; label: string }, key: string, choice: DownloadChoice): Promise<boolean> {
  notices.info(T.deviceData.downloading);
  const got =
    choice.kind === 'time'
      ? await allPeriods(device.id, key, choice.start, choice.end)
      : await api.call(contracts.states.newest, { device_id: device.id, key, n: choice.n }).then((r) => (isOk(r) ? { ok: true as const, rows: r.body.state_data } : { ok: false as const, failed: r }));
  if (!got.ok) {
    notices.error(downloadFailedText(got.failed));
    return false;
  }
  saveText(downloadFileName(device.label, device.id, ['state', key]), stateCsv([...got.rows].sort((a, b) => a.initial_ts - b.initial_ts)));
  return true;
}
