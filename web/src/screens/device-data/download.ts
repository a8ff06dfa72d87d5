// Downloads a param's CSV through the request layer (the session headers travel, so no plain link) and saves it under
// the server's file name; notices "Download sedang dilakukan" / "Download gagal" (spec 03 section 8).
import { contracts, T } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { notices } from '../../ui/snackbar/notices.js';
import type { DownloadChoice } from './DownloadDialog.js';
import { downloadFileName, fileNameOf, saveText } from './format.js';

export async function downloadParamCsv(device: { id: number; label: string }, k: { sensor: string; configtype: string; param: string }, choice: DownloadChoice): Promise<boolean> {
  notices.info(T.deviceData.downloading);
  const base = { id: device.id, device_id: device.id, sensor: k.sensor, configtype: k.configtype, param: k.param };
  const r =
    choice.kind === 'time'
      ? await api.call(contracts.deviceData.csvPeriod, { ...base, start: choice.start, end: choice.end })
      : await api.call(contracts.deviceData.csvLatest, { ...base, ndata: choice.n });
  if (r.code !== 200 || typeof r.body !== 'string') {
    notices.error(T.deviceData.downloadFailed);
    return false;
  }
  saveText(fileNameOf(r.headers['content-disposition']) ?? downloadFileName(device.label, device.id, [k.sensor, k.configtype, k.param]), r.body);
  return true;
}
