// "Lihat State" (spec 03 section 2.6): a state's history with tabs Nilai Terakhir (25/50/100) and Waktu (the last 24
// hours by default); columns key, value, active, initial, latest.
import { useEffect, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { contracts, T, type StateRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { TableEmptyRow } from '../../ui/PagedTable.js';
import { formatTs, formatValue } from '../device-data/format.js';
import { historyRequest, HistoryRangeFields, useHistoryRange } from '../device-data/shared/HistoryRange.js';
import { ActiveChip } from './ActiveChip.js';

export function StateDialog({ deviceId, stateKey, onClose }: { deviceId: number; stateKey: string; onClose: () => void }) {
  const range = useHistoryRange();
  const { tab, n, start, end } = range;
  const [rows, setRows] = useState<StateRow[] | null>(null);

  useEffect(() => {
    let live = true;
    const req = historyRequest({ tab, n, start, end }, {
      latest: (count) => api.call(contracts.states.newest, { device_id: deviceId, key: stateKey, n: count }),
      time: (from, to) => api.call(contracts.states.periodic, { device_id: deviceId, key: stateKey, start: Math.min(from, to), end: Math.max(from, to) }),
    });
    if (!req) return void setRows([]);
    void req.then((r) => live && setRows(isOk(r) ? r.body.state_data : []));
    return () => {
      live = false;
    };
  }, [deviceId, stateKey, tab, n, start, end]);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{T.deviceStates.dialogTitle}: {stateKey}</DialogTitle>
      <DialogContent>
        <HistoryRangeFields range={range} />
        <Box sx={{ maxHeight: 480, overflow: 'auto' }}>
          <Table size="small" stickyHeader>
            <TableHead>
              <TableRow>
                {[T.deviceStates.colKey, T.deviceStates.colValue, T.deviceStates.colActive, T.deviceStates.colInitial, T.deviceStates.colLatest].map((h) => <TableCell key={h}>{h}</TableCell>)}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows?.map((r) => (
                <TableRow key={r.initial_ts}>
                  <TableCell>{r.key}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{formatValue(r.value)}</TableCell>
                  <TableCell><ActiveChip isNull={r.is_null} /></TableCell>
                  <TableCell title={String(r.initial_ts)}>{formatTs(r.initial_ts)}</TableCell>
                  <TableCell title={String(r.latest_ts)}>{formatTs(r.latest_ts)}</TableCell>
                </TableRow>
              ))}
              {rows?.length === 0 && <TableEmptyRow colSpan={5} text={T.deviceData.noData} py={3} />}
            </TableBody>
          </Table>
        </Box>
      </DialogContent>
      <DialogActions><Button onClick={onClose}>{T.deviceData.close}</Button></DialogActions>
    </Dialog>
  );
}
