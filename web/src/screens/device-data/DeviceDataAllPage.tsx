// "Semua Data" (spec 03 section 2.5 "Data page"): every series' latest value — Waktu Update, Konfigurasi (an icon by
// config type: config, command, data) and Nilai — newest first, paged 25/50/100, updated live as values arrive.
import { Box, TableCell, TableRow, Tooltip } from '@mui/material';
import TuneIcon from '@mui/icons-material/Tune';
import TerminalIcon from '@mui/icons-material/Terminal';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import { contracts, T, type LatestPoint } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { BrowserPagedTable, useClientPaging } from '../../ui/PagedTable.js';
import type { DeviceDataEvent } from '../../live/deviceData.js';
import { formatTs, formatValue } from './format.js';
import { DeviceHeading } from './shared/DeviceHeading.js';
import { useDeviceRows } from './shared/useDeviceRows.js';

const SIZES = [25, 50, 100];
const keyOf = (p: LatestPoint) => `${p.sensor}\u001f${p.configtype}\u001f${p.param}\u001f${p.subparam}`;

export function ConfigTypeIcon({ configtype }: { configtype: string }) {
  const icon =
    configtype === 'config' ? (
      <TuneIcon fontSize="small" color="primary" />
    ) : configtype === 'command' ? (
      <TerminalIcon fontSize="small" color="secondary" />
    ) : (
      <ShowChartIcon fontSize="small" color="action" />
    );
  return (
    <Tooltip title={configtype}>
      <Box component="span" sx={{ display: 'inline-flex', verticalAlign: 'middle', mr: 1 }} aria-label={configtype}>
        {icon}
      </Box>
    </Tooltip>
  );
}

/** merges live points into the list: a series' newer value replaces its row, newest first */
export function mergeLatest(rows: LatestPoint[], events: readonly DeviceDataEvent[]): LatestPoint[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  for (const e of events)
    for (const p of e.data) {
      const old = map.get(keyOf(p));
      if (!old || old.ts <= p.ts) map.set(keyOf(p), p);
    }
  return [...map.values()].sort((a, b) => b.ts - a.ts);
}

const fetchLatest = (id: number) => api.call(contracts.deviceData.latest, { id });

export function DeviceDataAllPage() {
  const { device, rows } = useDeviceRows(fetchLatest, mergeLatest);

  const { shown, pager } = useClientPaging(rows, 25);
  return (
    <Box sx={{ position: 'relative', minHeight: 200 }}>
      <DeviceHeading title={T.deviceData.allTitle} device={device} />
      <BrowserPagedTable
        label={T.deviceData.allTitle}
        pager={{ ...pager, sizes: SIZES }}
        emptyRow={rows?.length === 0 ? { colSpan: 3, text: T.deviceData.empty } : null}
        columns={[
          { text: T.deviceData.updatedAt, width: 200 },
          { text: T.deviceData.config, width: 320 },
          T.deviceData.value,
        ]}
      >
        {shown.map((p) => (
          <TableRow key={keyOf(p)} hover data-testid="data-row">
            <TableCell title={String(p.ts)}>{formatTs(p.ts)}</TableCell>
            <TableCell>
              <ConfigTypeIcon configtype={p.configtype} />
              {[p.sensor, p.configtype, p.param, p.subparam].filter(Boolean).join(' / ')}
            </TableCell>
            <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{formatValue(p.value)}</TableCell>
          </TableRow>
        ))}
      </BrowserPagedTable>
      <LoadingOverlay open={rows === null} />
    </Box>
  );
}
