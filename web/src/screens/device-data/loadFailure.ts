// What a dialog says when the stored values it shows or edits could not be read: the server's reason, or the
// catalogue's message for the failure.
import { T } from '@sentra/contracts';
import { failureMessage, serverReason } from '../../api/outcome.js';
import type { ApiResult } from '../../api/request.js';

/** why a read failed, in the user's words */
export const loadFailureReason = (r: ApiResult<unknown>): string =>
  serverReason(r) ?? failureMessage(r, { fallback: `HTTP ${r.code}` });

/** an editing dialog's read failed: it then offers no Simpan */
export const loadFailureText = (r: ApiResult<unknown>): string => T.deviceData.loadFailed(loadFailureReason(r));
