// "Semua Data" (spec 03 section 2.5 "Data page"): every series' latest value — Waktu Update, Konfigurasi (an icon by
// config type: config, command, data) and Nilai — newest first, paged 25/50/100, updated live as values arrive.
import { useCallback, useEffect, useState } from 'react';
import { Box, Chip, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow, Tooltip, Typography } from '@mui/material';
import TuneIcon from '@mui/icons-material/Tune';
import TerminalIcon from '@mui/icons-material/Terminal';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import { contracts, T, type DataDevice, type LatestPoint } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { paginationLabels } from '../../ui/pagination.js';
import { useLiveDeviceData, type DeviceDataEvent } from '../../live/deviceData.js';
import { formatTs, formatValue } from './format.js';
import { useDeviceId } from './useDeviceId.js';

const SIZES = [25, 50, 100];
const keyOf = (p: LatestPoint) => `${p.sensor}\u001f${p.configtype}\u001f${p.param}\u001f${p.subparam}`;

export function ConfigTypeIcon({ configtype }: { configtype: string }) {
  const icon = configtype === 'config' ? <TuneIcon fontSize="small" color="primary" /> : configtype === 'command' ? <TerminalIcon fontSize="small" color="secondary" /> : <ShowChartIcon fontSize="small" color="action" />;
  return <Tooltip title={configtype}><Box component="span" sx={{ display: 'inline-flex', verticalAlign: 'middle', mr: 1 }} aria-label={configtype}>{icon}</Box></Tooltip>;
}

/** merges live points into the list: a series' newer value replaces its row, newest first */
export function mergeLatest(rows: LatestPoint[], events: readonly DeviceDataEvent[]): LatestPoint[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  for (const e of events) for (const p of e.data) {
    const old = map.get(keyOf(p));
    if (!old || old.ts <= p.ts) map.set(keyOf(p), p);
  }
  return [...map.values()].sort((a, b) => b.ts - a.ts);
}

export function DeviceDataAllPage() {
  const id = useDeviceId();
  const [device, setDevice] = useState<DataDevice | null>(null);
  const [rows, setRows] = useState<LatestPoint[] | null>(null);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(25);

  const load = useCallback(async () => {
    if (!id) return setRows([]);
    const r = await api.call(contracts.deviceData.latest, { id });
    if (isOk(r)) {
      setDevice(r.body.device);
      setRows(r.body.data);
    } else setRows([]);
  }, [id]);
  useEffect(() => void load(), [load]);
  useLiveDeviceData(id, (events) => setRows((prev) => (prev ? mergeLatest(prev, events.filter((e) => e.device_id === id)) : prev)));

  const shown = rows?.slice(page * size, page * size + size) ?? [];
  return (
    <Box sx={{ position: 'relative', minHeight: 200 }}>
      <Box sx={{ mb: 2 }}>
        <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>{T.deviceData.allTitle}</Typography>
        {device && (
          <Typography color="text.secondary">
            {device.label} · {device.serial_number} <Chip size="small" sx={{ ml: 1 }} color={device.online ? 'success' : 'default'} label={device.online ? T.deviceData.on : T.deviceData.off} />
          </Typography>
        )}
      </Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={T.deviceData.allTitle}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 200 }}>{T.deviceData.updatedAt}</TableCell>
              <TableCell sx={{ width: 320 }}>{T.deviceData.config}</TableCell>
              <TableCell>{T.deviceData.value}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
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
            {rows?.length === 0 && (
              <TableRow><TableCell colSpan={3} sx={{ textAlign: 'center', py: 5, color: 'text.secondary' }}>{T.deviceData.empty}</TableCell></TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={rows?.length ?? 0}
        page={Math.min(page, Math.max(0, Math.ceil((rows?.length ?? 0) / size) - 1))}
        rowsPerPage={size}
        rowsPerPageOptions={SIZES}
        onPageChange={(_, p) => setPage(p)}
        onRowsPerPageChange={(e) => (setSize(Number(e.target.value)), setPage(0))}
        {...paginationLabels}
      />
      <LoadingOverlay open={rows === null} />
    </Box>
  );
}
