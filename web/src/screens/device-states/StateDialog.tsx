// "Lihat State" (spec 03 sections 2.6, 9): a state's history with tabs Nilai Terakhir (25/50/100) and Waktu (the last 24
// hours by default); columns key, value, active, initial, latest, newest first in both tabs, paged 25/50/100.
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TableCell, TableRow } from '@mui/material';
import { contracts, T, type StateRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { BrowserPagedTable, useClientPaging } from '../../ui/PagedTable.js';
import { formatTs, formatValue } from '../device-data/format.js';
import {
  HISTORY_PAGE_SIZES,
  HistoryRangeFields,
  HistoryNote,
  useHistoryRange,
  historyFailed,
  useHistoryRows,
} from '../device-data/shared/HistoryRange.js';
import { ActiveChip } from './ActiveChip.js';

/** The columns of a state row, on the page and in its history. */
export const STATE_COLUMNS = [
  T.deviceStates.colKey,
  T.deviceStates.colValue,
  T.deviceStates.colActive,
  T.deviceStates.colInitial,
  T.deviceStates.colLatest,
];

export function StateDialog({
  deviceId,
  stateKey,
  onClose,
}: {
  deviceId: number;
  stateKey: string;
  onClose: () => void;
}) {
  const range = useHistoryRange();
  const answer = useHistoryRows<StateRow>(range, `${deviceId}\u001f${stateKey}`, {
    latest: async (n) => {
      const r = await api.call(contracts.states.newest, { device_id: deviceId, key: stateKey, n });
      return isOk(r) ? { rows: r.body.state_data, truncated: false } : historyFailed(r);
    },
    time: async (start, end) => {
      const r = await api.call(contracts.states.periodic, { device_id: deviceId, key: stateKey, start, end });
      return isOk(r) ? { rows: r.body.state_data, truncated: r.body.truncated } : historyFailed(r);
    },
  });
  const rows = answer?.rows ?? null;
  const { shown, pager } = useClientPaging(rows, HISTORY_PAGE_SIZES[0]);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>
        {T.deviceStates.dialogTitle}: {stateKey}
      </DialogTitle>
      <DialogContent>
        <HistoryRangeFields range={range} />
        <HistoryNote answer={answer} />
        <BrowserPagedTable
          label={T.deviceStates.dialogTitle}
          pager={{ ...pager, sizes: HISTORY_PAGE_SIZES }}
          emptyRow={rows?.length === 0 && !answer?.failed ? { colSpan: 5, text: T.deviceData.noData } : null}
          columns={STATE_COLUMNS}
        >
          {shown.map((r) => (
            <TableRow key={r.initial_ts} data-testid="history-row">
              <TableCell>{r.key}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{formatValue(r.value)}</TableCell>
              <TableCell>
                <ActiveChip isNull={r.is_null} />
              </TableCell>
              <TableCell title={String(r.initial_ts)}>{formatTs(r.initial_ts)}</TableCell>
              <TableCell title={String(r.latest_ts)}>{formatTs(r.latest_ts)}</TableCell>
            </TableRow>
          ))}
        </BrowserPagedTable>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.deviceData.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
