// The full-screen Data dialog (spec 03 sections 2.5, 9): "Nilai Terakhir" (latest 25, 50 or 100) and "Waktu" (a
// date-time range, the last 24 hours by default); columns value, quality, updated, newest first, paged 25/50/100; the
// header names sensor, configtype, param. Above the table, a chart of the same rows (numbers, numeric subparams,
// booleans) over the chosen window.
import { AppBar, Box, Button, Dialog, IconButton, TableCell, TableRow, Toolbar, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { contracts, T, type SensorDataRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { BrowserPagedTable, useClientPaging } from '../../ui/PagedTable.js';
import { formatTs, formatValue } from './format.js';
import { HistoryChart } from './HistoryChart.js';
import {
  HISTORY_PAGE_SIZES,
  HistoryRangeFields,
  HistoryNote,
  useHistoryRange,
  historyFailed,
  useHistoryRows,
} from './shared/HistoryRange.js';

export interface SeriesRef {
  deviceId: number;
  sensor: string;
  configtype: string;
  param: string;
}

export function DataDialog({ series, onClose }: { series: SeriesRef; onClose: () => void }) {
  const range = useHistoryRange();
  const key = { id: series.deviceId, sensor: series.sensor, configtype: series.configtype, param: series.param };
  const answer = useHistoryRows<SensorDataRow>(range, JSON.stringify(key), {
    latest: async (ndata) => {
      const r = await api.call(contracts.deviceData.ndata, { ...key, ndata });
      return isOk(r) ? { rows: r.body.data, truncated: false } : historyFailed(r);
    },
    time: async (start, end) => {
      const r = await api.call(contracts.deviceData.periodic, { ...key, start, end });
      return isOk(r) ? { rows: r.body.data, truncated: r.body.truncated } : historyFailed(r);
    },
  });
  const rows = answer?.rows ?? null;
  const { shown, pager } = useClientPaging(rows, HISTORY_PAGE_SIZES[0]);

  return (
    <Dialog open fullScreen onClose={onClose} aria-labelledby="data-dialog-title">
      <AppBar position="relative" color="default" elevation={1}>
        <Toolbar>
          <IconButton edge="start" onClick={onClose} aria-label={T.deviceData.close}>
            <CloseIcon />
          </IconButton>
          <Typography id="data-dialog-title" variant="h6" sx={{ ml: 2, flex: 1 }}>
            {T.deviceData.dataDialogTitle}: {series.sensor} / {series.configtype} / {series.param}
          </Typography>
        </Toolbar>
      </AppBar>
      <Box sx={{ p: 3 }}>
        <HistoryRangeFields range={range} />
        <HistoryNote answer={answer} />
        <HistoryChart rows={rows} param={series.param} />
        <BrowserPagedTable
          label={T.deviceData.dataDialogTitle}
          pager={{ ...pager, sizes: HISTORY_PAGE_SIZES }}
          emptyRow={rows?.length === 0 && !answer?.failed ? { colSpan: 3, text: T.deviceData.noData } : null}
          columns={[T.deviceData.colValue, T.deviceData.colQuality, T.deviceData.colUpdated]}
        >
          {shown.map((r) => (
            <TableRow key={r.timestamp} hover data-testid="history-row">
              <TableCell sx={{ fontFamily: 'monospace', maxWidth: 600, overflowWrap: 'anywhere' }}>
                {formatValue(r.value)}
              </TableCell>
              <TableCell>{r.quality}</TableCell>
              <TableCell title={String(r.timestamp)}>{formatTs(r.timestamp)}</TableCell>
            </TableRow>
          ))}
        </BrowserPagedTable>
        <Box sx={{ mt: 2 }}>
          <Button onClick={onClose}>{T.deviceData.close}</Button>
        </Box>
      </Box>
    </Dialog>
  );
}
