// "Daftar Kondisi" (spec 03 section 2.6): key, value, active (Inactive when null), initial time, latest time (raw
// timestamps in tooltips), action; paged 100/150/200 with "Baris terlihat:" / "x-y dari n". The row menu opens on
// hover: Lihat State, Download, Hapus ("Konfirmasi Hapus State"). New reports arrive live.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  Box,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import VisibilityIcon from '@mui/icons-material/Visibility';
import DownloadIcon from '@mui/icons-material/Download';
import DeleteIcon from '@mui/icons-material/Delete';
import { compareStateKeys, contracts, T, type StateRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { useCanReach } from '../../shell/grants.js';
import { canManageDevices } from '../devices/deviceRoutes.js';
import { isOk } from '../../api/request.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { callOrThrow } from '../../api/call.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { BrowserPagedTable, useClientPaging } from '../../ui/PagedTable.js';
import { useLiveDeviceData, type DeviceDataEvent } from '../../live/deviceData.js';
import { DownloadDialog } from '../device-data/DownloadDialog.js';
import { formatTs, formatValue } from '../device-data/format.js';
import { useDeviceId } from '../device-data/useDeviceId.js';
import { ActiveChip } from './ActiveChip.js';
import { StateDialog } from './StateDialog.js';
import { downloadStateCsv } from './stateDownload.js';

const SIZES = [100, 150, 200];

/** live state reports: a changed value restarts initial_ts, a repeated one moves latest_ts */
export function mergeStates(rows: StateRow[], events: readonly DeviceDataEvent[]): StateRow[] {
  const map = new Map(rows.map((r) => [r.key, r]));
  for (const e of events)
    for (const s of e.states) {
      const old = map.get(s.key);
      if (old && s.ts < old.latest_ts) continue;
      const same = old && JSON.stringify(old.value) === JSON.stringify(s.value);
      map.set(s.key, {
        key: s.key,
        value: s.value,
        is_null: s.is_null,
        initial_ts: same ? old.initial_ts : s.ts,
        latest_ts: s.ts,
      });
    }
  return [...map.values()].sort((a, b) => compareStateKeys(a.key, b.key));
}

export function DeviceStatePage() {
  const id = useDeviceId();
  const { busy, act: confirmed } = useConfirmedAction();
  // Hapus is a change: only for a role that manages devices (the server refuses it to a list-only role)
  const canRemove = canManageDevices(useCanReach());
  const [label, setLabel] = useState('');
  const [rows, setRows] = useState<StateRow[] | null>(null);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; row: StateRow } | null>(null);
  const [open, setOpen] = useState<{ kind: 'view' | 'download'; row: StateRow } | null>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const load = useCallback(async () => {
    if (!id) return setRows([]);
    const r = await api.call(contracts.states.list, { device_id: id });
    if (isOk(r)) {
      setLabel(r.body.device_label);
      setRows(r.body.states);
    } else setRows([]);
  }, [id]);
  useEffect(() => void load(), [load]);
  useLiveDeviceData(id, (events) =>
    setRows((prev) =>
      prev
        ? mergeStates(
            prev,
            events.filter((e) => e.device_id === id && e.states.length),
          )
        : prev,
    ),
  );

  const remove = (row: StateRow) => {
    if (!id) return;
    return confirmed({
      ask: { title: T.deviceStates.removeConfirmTitle, message: T.deviceStates.removeQuestion(row.key) },
      run: (failed) => callOrThrow(contracts.states.remove, { device_id: id, key: row.key }, failed),
      success: T.deviceStates.removeSuccess,
      failed: T.deviceStates.removeFailed,
      done: load,
    });
  };

  /** the row menu closes shortly after the pointer leaves its button or the menu, unless it enters the other */
  const closeSoon = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setMenu(null), 300);
  };
  const openMenu = (anchor: HTMLElement, row: StateRow) => {
    clearTimeout(closeTimer.current);
    setMenu({ anchor, row });
  };
  const pick = (kind: 'view' | 'download' | 'remove') => () => {
    const row = menu?.row;
    setMenu(null);
    if (!row) return;
    if (kind === 'remove') void remove(row);
    else setOpen({ kind, row });
  };
  const { shown, pager } = useClientPaging(rows, 100);
  const ts = (v: number) => (
    <Tooltip title={String(v)}>
      <span>{formatTs(v)}</span>
    </Tooltip>
  );

  return (
    <Box sx={{ position: 'relative', minHeight: 200 }}>
      <Box sx={{ mb: 2 }}>
        <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>
          {T.deviceStates.title}
        </Typography>
        <Typography color="text.secondary">{label}</Typography>
      </Box>
      <BrowserPagedTable
        label={T.deviceStates.title}
        pager={{ ...pager, sizes: SIZES }}
        emptyRow={rows?.length === 0 ? { colSpan: 6, text: T.deviceStates.empty } : null}
        head={
          <>
            {[
              T.deviceStates.colKey,
              T.deviceStates.colValue,
              T.deviceStates.colActive,
              T.deviceStates.colInitial,
              T.deviceStates.colLatest,
            ].map((h) => (
              <TableCell key={h}>{h}</TableCell>
            ))}
            <TableCell align="right">{T.deviceStates.colAction}</TableCell>
          </>
        }
      >
        {shown.map((r) => (
          <TableRow key={r.key} hover data-testid="state-row">
            <TableCell sx={{ fontWeight: 600 }}>{r.key}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>{formatValue(r.value)}</TableCell>
            <TableCell>
              <ActiveChip isNull={r.is_null} />
            </TableCell>
            <TableCell>{ts(r.initial_ts)}</TableCell>
            <TableCell>{ts(r.latest_ts)}</TableCell>
            <TableCell align="right">
              <IconButton
                size="small"
                aria-label={T.deviceData.rowMenu(r.key)}
                aria-haspopup="menu"
                onMouseEnter={(e) => openMenu(e.currentTarget, r)}
                onMouseLeave={closeSoon}
                onClick={(e) => openMenu(e.currentTarget, r)}
              >
                <MoreVertIcon fontSize="small" />
              </IconButton>
            </TableCell>
          </TableRow>
        ))}
      </BrowserPagedTable>
      <Menu
        anchorEl={menu?.anchor}
        open={menu !== null}
        onClose={() => setMenu(null)}
        // opened by hover, so not modal: no backdrop takes the pointer, and the click that follows the hover reaches the
        // button (a backdrop there closed the menu the hover had just opened); leaving button and menu closes it
        hideBackdrop
        disableScrollLock
        slotProps={{
          root: { style: { pointerEvents: 'none' } },
          paper: { style: { pointerEvents: 'auto' } },
          list: { onMouseLeave: closeSoon, onMouseEnter: () => clearTimeout(closeTimer.current) },
        }}
      >
        <MenuItem onClick={pick('view')}>
          <ListItemIcon>
            <VisibilityIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{T.deviceStates.view}</ListItemText>
        </MenuItem>
        <MenuItem onClick={pick('download')}>
          <ListItemIcon>
            <DownloadIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{T.deviceStates.download}</ListItemText>
        </MenuItem>
        {canRemove && (
          <MenuItem onClick={pick('remove')}>
            <ListItemIcon>
              <DeleteIcon fontSize="small" color="error" />
            </ListItemIcon>
            <ListItemText>{T.deviceStates.remove}</ListItemText>
          </MenuItem>
        )}
      </Menu>
      {id && open?.kind === 'view' && (
        <StateDialog deviceId={id} stateKey={open.row.key} onClose={() => setOpen(null)} />
      )}
      {id && open?.kind === 'download' && (
        <DownloadDialog
          title={`${T.deviceStates.download}: ${open.row.key}`}
          onClose={() => setOpen(null)}
          onDownload={(choice) => {
            const row = open.row;
            setOpen(null);
            void downloadStateCsv({ id, label }, row.key, choice);
          }}
        />
      )}
      <LoadingOverlay open={rows === null || busy} />
    </Box>
  );
}
