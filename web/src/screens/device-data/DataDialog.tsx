// The full-screen Data dialog (spec 03 section 2.5): "Nilai Terakhir" (latest 25, 50 or 100) and "Waktu" (a date-time
// range, the last 24 hours by default); columns value, quality, updated; the header names sensor, configtype, param.
import { useEffect, useState } from 'react';
import { AppBar, Box, Button, Dialog, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Toolbar, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { contracts, T, type SensorDataRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { TableEmptyRow } from '../../ui/PagedTable.js';
import { formatTs, formatValue } from './format.js';
import { historyRequest, HistoryRangeFields, useHistoryRange } from './shared/HistoryRange.js';

export interface SeriesRef {
  deviceId: number;
  sensor: string;
  configtype: string;
  param: string;
}

export function DataDialog({ series, onClose }: { series: SeriesRef; onClose: () => void }) {
  const range = useHistoryRange();
  const { tab, n, start, end } = range;
  const [rows, setRows] = useState<SensorDataRow[] | null>(null);

  useEffect(() => {
    let live = true;
    setRows(null);
    const key = { id: series.deviceId, sensor: series.sensor, configtype: series.configtype, param: series.param };
    const request = historyRequest({ tab, n, start, end }, {
      latest: (ndata) => api.call(contracts.deviceData.ndata, { ...key, ndata }),
      time: (from, to) => api.call(contracts.deviceData.periodic, { ...key, start: from, end: to }),
    });
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
        <HistoryRangeFields range={range} />
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
            {rows?.length === 0 && <TableEmptyRow colSpan={3} text={T.deviceData.noData} py={4} />}
          </TableBody>
        </Table>
        {rows === null && <Typography sx={{ p: 2 }} color="text.secondary">…</Typography>}
        <Box sx={{ mt: 2 }}><Button onClick={onClose}>{T.deviceData.close}</Button></Box>
      </Box>
    </Dialog>
  );
}
