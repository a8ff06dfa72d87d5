// Downloads a param's CSV through the request layer (the session headers travel, so no plain link) and saves it under
// the server's file name; notices "Download sedang dilakukan" / "Download gagal" with the server's reason (spec 03
// section 8). The file's times are in the zone the screens show (the browser's), sent as `tz`.
import { contracts, T } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { failureMessage, serverReason } from '../../api/outcome.js';
import type { ApiResult } from '../../api/request.js';
import { notices } from '../../ui/snackbar/notices.js';
import type { DownloadChoice } from './DownloadDialog.js';
import { downloadFileName, fileNameOf, saveText, screenTimeZone } from './format.js';

/** "Download gagal", with why when the server (or the connection) says why */
export function downloadFailedText(r: ApiResult<unknown>): string {
  // no envelope reason: the connection's or the server's failure (failureMessage), nothing for other answers
  const reason = serverReason(r) ?? failureMessage(r, { fallback: '' });
  return reason ? T.deviceData.downloadFailedBecause(reason) : T.deviceData.downloadFailed;
}

export async function downloadParamCsv(
  device: { id: number; label: string },
  k: { sensor: string; configtype: string; param: string },
  choice: DownloadChoice,
): Promise<boolean> {
  const notice = notices.about(`download:${device.id}:${k.sensor}/${k.configtype}/${k.param}`);
  notice.info(T.deviceData.downloading);
  const base = {
    id: device.id,
    device_id: device.id,
    sensor: k.sensor,
    configtype: k.configtype,
    param: k.param,
    tz: screenTimeZone(),
  };
  const r =
    choice.kind === 'time'
      ? await api.call(contracts.deviceData.csvPeriod, { ...base, start: choice.start, end: choice.end })
      : await api.call(contracts.deviceData.csvLatest, { ...base, ndata: choice.n });
  if (r.code !== 200 || typeof r.body !== 'string') {
    notice.error(downloadFailedText(r));
    return false;
  }
  notice.settle();
  saveText(
    fileNameOf(r.headers['content-disposition']) ??
      downloadFileName(device.label, device.id, [k.sensor, k.configtype, k.param]),
    r.body,
  );
  return true;
}
