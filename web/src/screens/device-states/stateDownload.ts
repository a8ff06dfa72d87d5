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

/** Pages one download reads at most (of STATE_RANGE_MAX periods each: a million periods); the file says when cut. */
export const STATE_DOWNLOAD_MAX_PAGES = 200;

type Periods = { ok: true; rows: StateRow[]; cut: boolean } | Fail;

/**
 * Every value period of `key` overlapping start..end, newest first: pages of the newest periods until one is complete.
 * Bounded: at most STATE_DOWNLOAD_MAX_PAGES pages, and a page that does not reach further back ends the reading.
 */
export async function allPeriods(
  deviceId: number,
  key: string,
  start: number,
  end: number,
  maxPages = STATE_DOWNLOAD_MAX_PAGES,
): Promise<Periods> {
  const rows: StateRow[] = [];
  const seen = new Set<number>();
  let to = end;
  for (let page = 0; page < maxPages; page++) {
    const r = await api.call(contracts.states.periodic, { device_id: deviceId, key, start, end: to });
    if (!isOk(r)) return { ok: false, failed: r };
    for (const p of r.body.state_data) if (!seen.has(p.initial_ts)) (seen.add(p.initial_ts), rows.push(p));
    const oldest = r.body.state_data.at(-1);
    if (!r.body.truncated || !oldest) return { ok: true, rows, cut: false };
    // on from just before the oldest period shown (never before `start`: the period going at `start` comes last)
    const next = Math.max(start, oldest.initial_ts - 1);
    if (next >= to) return { ok: true, rows, cut: true };
    to = next;
  }
  return { ok: true, rows, cut: true };
}

export async function downloadStateCsv(
  device: { id: number; label: string },
  key: string,
  choice: DownloadChoice,
): Promise<boolean> {
  const notice = notices.about(`download:${device.id}:state/${key}`);
  notice.info(T.deviceData.downloading);
  const got =
    choice.kind === 'time'
      ? await allPeriods(device.id, key, choice.start, choice.end)
      : await api
          .call(contracts.states.newest, { device_id: device.id, key, n: choice.n })
          .then((r) =>
            isOk(r) ? { ok: true as const, rows: r.body.state_data, cut: false } : { ok: false as const, failed: r },
          );
  if (!got.ok) {
    notice.error(downloadFailedText(got.failed));
    return false;
  }
  if (got.cut) notice.warning(T.deviceData.downloadCut(got.rows.length));
  else notice.settle();
  saveText(
    downloadFileName(device.label, device.id, ['state', key]),
    stateCsv([...got.rows].sort((a, b) => a.initial_ts - b.initial_ts)),
  );
  return true;
}
