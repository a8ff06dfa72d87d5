// The full-screen Data dialog (spec 03 section 2.5): "Nilai Terakhir" (latest 25, 50 or 100) and "Waktu" (a date-time
// range, the last 24 hours by default); columns value, quality, updated; the header names sensor, configtype, param.
import { useEffect, useState } from 'react';
import { AppBar, Box, Button, Dialog, IconButton, MenuItem, Stack, Tab, Table, TableBody, TableCell, TableHead, TableRow, Tabs, TextField, Toolbar, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { contracts, T, type SensorDataRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { formatTs, formatValue, fromInputValue, toInputValue } from './format.js';

const LATEST_SIZES = [25, 50, 100] as const;
const DAY_MS = 86_400_000;

export interface SeriesRef {
  deviceId: number;
  sensor: string;
  configtype: string;
  param: string;
}

export function DataDialog({ series, onClose }: { series: SeriesRef; onClose: () => void }) {
  const [tab, setTab] = useState<'latest' | 'time'>('latest');
  const [n, setN] = useState<number>(25);
  const [start, setStart] = useState(() => toInputValue(Date.now() - DAY_MS));
  const [end, setEnd] = useState(() => toInputValue(Date.now()));
  const [rows, setRows] = useState<SensorDataRow[] | null>(null);

  useEffect(() => {
    let live = true;
    setRows(null);
    const key = { id: series.deviceId, sensor: series.sensor, configtype: series.configtype, param: series.param };
    const from = fromInputValue(start);
    const to = fromInputValue(end);
    const request =
      tab === 'latest'
        ? api.call(contracts.deviceData.ndata, { ...key, ndata: n })
        : from !== null && to !== null
          ? api.call(contracts.deviceData.periodic, { ...key, start: from, end: to })
          : null;
    if (!request) return void setRows([]);
    void request.then((r) => {
      if (live) setRows(isOk(r) ? r.body.data : []);
    });
    return () => {
      live = false;
    };
  }, [series, tab, n, start, end]);

  return (
    <Dialog open fullScreen onClose={onClose} aria-labelledby="data-dialog-title">
      <AppBar position="relative" color="default" elevation={1}>
        <Toolbar>
          <IconButton edge="start" onClick={onClose} aria-label={T.deviceData.close}><CloseIcon /></IconButton>
          <Typography id="data-dialog-title" variant="h6" sx={{ ml: 2, flex: 1 }}>
            {T.deviceData.dataDialogTitle}: {series.sensor} / {series.configtype} / {series.param}
          </Typography>
        </Toolbar>
      </AppBar>
      <Box sx={{ p: 3 }}>
        <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ mb: 2 }}>
          <Tab value="latest" label={T.deviceData.latestTab} />
          <Tab value="time" label={T.deviceData.timeTab} />
        </Tabs>
        <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
          {tab === 'latest' ? (
            <TextField select size="small" label={T.deviceData.latestCount} value={n} onChange={(e) => setN(Number(e.target.value))} sx={{ width: 160 }}>
              {LATEST_SIZES.map((s) => <MenuItem key={s} value={s}>{s}</MenuItem>)}
            </TextField>
          ) : (
            <>
              <TextField size="small" type="datetime-local" label={T.deviceData.start} value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }} />
              <TextField size="small" type="datetime-local" label={T.deviceData.end} value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }} />
            </>
          )}
        </Stack>
        <Table size="small" aria-label={T.deviceData.dataDialogTitle}>
          <TableHead>
            <TableRow>
              <TableCell>{T.deviceData.colValue}</TableCell>
              <TableCell>{T.deviceData.colQuality}</TableCell>
              <TableCell>{T.deviceData.colUpdated}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows?.map((r) => (
              <TableRow key={r.timestamp} hover>
                <TableCell sx={{ fontFamily: 'monospace', maxWidth: 600, overflowWrap: 'anywhere' }}>{formatValue(r.value)}</TableCell>
                <TableCell>{r.quality}</TableCell>
                <TableCell title={String(r.timestamp)}>{formatTs(r.timestamp)}</TableCell>
              </TableRow>
            ))}
            {rows?.length === 0 && (
              <TableRow>
                <TableCell colSpan={3} sx={{ textAlign: 'center', color: 'text.secondary', py: 4 }}>{T.deviceData.noData}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
        {rows === null && <Typography sx={{ p: 2 }} color="text.secondary">…</Typography>}
        <Box sx={{ mt: 2 }}><Button onClick={onClose}>{T.deviceData.close}</Button></Box>
      </Box>
    </Dialog>
  );
}
