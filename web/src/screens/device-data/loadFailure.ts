// What a dialog says when the stored values it edits could not be read (it then offers no Simpan).
import { T } from '@sentra/contracts';
import { failureMessage, serverReason } from '../../api/outcome.js';
import type { ApiResult } from '../../api/request.js';

export const loadFailureText = (r: ApiResult<unknown>): string =>
  T.deviceData.loadFailed(serverReason(r) ?? failureMessage(r, { fallback: `HTTP ${r.code}` }));
