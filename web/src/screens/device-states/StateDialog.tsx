// "Lihat State" (spec 03 section 2.6): a state's history with tabs Nilai Terakhir (25/50/100) and Waktu (the last 24
// hours by default); columns key, value, active, initial, latest.
import { useEffect, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, Tab, Table, TableBody, TableCell, TableHead, TableRow, Tabs, TextField } from '@mui/material';
import { contracts, T, type StateRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { formatTs, formatValue, fromInputValue, toInputValue } from '../device-data/format.js';
import { ActiveChip } from './ActiveChip.js';

const SIZES = [25, 50, 100] as const;

export function StateDialog({ deviceId, stateKey, onClose }: { deviceId: number; stateKey: string; onClose: () => void }) {
  const [tab, setTab] = useState<'latest' | 'time'>('latest');
  const [n, setN] = useState(25);
  const [start, setStart] = useState(() => toInputValue(Date.now() - 86_400_000));
  const [end, setEnd] = useState(() => toInputValue(Date.now()));
  const [rows, setRows] = useState<StateRow[] | null>(null);

  useEffect(() => {
    let live = true;
    const from = fromInputValue(start);
    const to = fromInputValue(end);
    const req =
      tab === 'latest'
        ? api.call(contracts.states.newest, { device_id: deviceId, key: stateKey, n })
        : from !== null && to !== null
          ? api.call(contracts.states.periodic, { device_id: deviceId, key: stateKey, start: Math.min(from, to), end: Math.max(from, to) })
          : null;
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
        <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ mb: 2 }}>
          <Tab value="latest" label={T.deviceData.latestTab} />
          <Tab value="time" label={T.deviceData.timeTab} />
        </Tabs>
        <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
          {tab === 'latest' ? (
            <TextField select size="small" label={T.deviceData.latestCount} value={n} onChange={(e) => setN(Number(e.target.value))} sx={{ width: 160 }}>
              {SIZES.map((s) => <MenuItem key={s} value={s}>{s}</MenuItem>)}
            </TextField>
          ) : (
            <>
              <TextField size="small" type="datetime-local" label={T.deviceData.start} value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }} />
              <TextField size="small" type="datetime-local" label={T.deviceData.end} value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }} />
            </>
          )}
        </Stack>
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
              {rows?.length === 0 && <TableRow><TableCell colSpan={5} sx={{ textAlign: 'center', py: 3, color: 'text.secondary' }}>{T.deviceData.noData}</TableCell></TableRow>}
            </TableBody>
          </Table>
        </Box>
      </DialogContent>
      <DialogActions><Button onClick={onClose}>{T.deviceData.close}</Button></DialogActions>
    </Dialog>
  );
}
