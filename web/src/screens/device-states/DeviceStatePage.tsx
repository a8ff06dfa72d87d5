// "Daftar Kondisi" (spec 03 section 2.6): key, value, active (Inactive when null), initial time, latest time (raw
// timestamps in tooltips), action; paged 100/150/200 with "Baris terlihat:" / "x-y dari n". The row menu opens on
// hover: Lihat State, Ubah nilai (a command setting the state, for a role that manages devices), Download, Hapus
// ("Konfirmasi Hapus State"). New reports arrive live. Above the list, the device's commands (DeviceCommandsPanel).
import { useRef, useState } from 'react';
import { Box, IconButton, Menu, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import VisibilityIcon from '@mui/icons-material/Visibility';
import DownloadIcon from '@mui/icons-material/Download';
import DeleteIcon from '@mui/icons-material/Delete';
import TuneIcon from '@mui/icons-material/Tune';
import { contracts, stateTarget, T, type DeviceDataRow, type StateRow } from '@sentra/contracts';
import { useCanReach } from '../../shell/grants.js';
import { canManageDevices } from '../devices/deviceRoutes.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { callOrThrow } from '../../api/call.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { BrowserPagedTable, useClientPaging } from '../../ui/PagedTable.js';
import { useHeldDevices } from '../../ui/devicePicker/useDeviceSearch.js';
import { ConfigDialog } from '../device-data/ConfigDialog.js';
import { DeviceCommandsPanel } from '../device-data/shared/DeviceCommandsPanel.js';
import { DownloadDialog } from '../device-data/DownloadDialog.js';
import { formatTs, formatValue } from '../device-data/format.js';
import { useDeviceId } from '../device-data/useDeviceId.js';
import { ActiveChip } from './ActiveChip.js';
import { StateDialog, STATE_COLUMNS } from './StateDialog.js';
import { downloadStateCsv } from './stateDownload.js';
import { useDeviceStates } from './mergeStates.js';
import { IconMenuItem } from '../../ui/IconMenuItem.js';

/** A state as the configuration dialog's row: set through the command call as the cards set it. */
export function stateAsRow(s: StateRow): DeviceDataRow {
  const datatype = typeof s.value === 'boolean' ? 'boolean' : typeof s.value === 'number' ? 'number' : 'string';
  return {
    ...stateTarget(s.key),
    datatype: s.value !== null && typeof s.value === 'object' ? 'object' : datatype,
    subparam_datatypes: {},
    value: s.value,
    ts: s.latest_ts,
    data_exist: true,
  };
}

const SIZES = [100, 150, 200];

export function DeviceStatePage() {
  const id = useDeviceId();
  const { busy, act: confirmed } = useConfirmedAction();
  // Hapus and the commands are changes: only for a role that manages devices (the server refuses them to a list-only role)
  const canWrite = canManageDevices(useCanReach());
  const { label, rows, load } = useDeviceStates(id);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; row: StateRow } | null>(null);
  const [open, setOpen] = useState<{ kind: 'view' | 'download' | 'set'; row: StateRow } | null>(null);
  // its family: which commands its screens offer
  const [device] = useHeldDevices(id ? [id] : []);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

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
  const pick = (kind: 'view' | 'download' | 'set' | 'remove') => () => {
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
      {id && canWrite && <DeviceCommandsPanel deviceId={id} category={device?.category} states={rows} />}
      <BrowserPagedTable
        label={T.deviceStates.title}
        pager={{ ...pager, sizes: SIZES }}
        emptyRow={rows?.length === 0 ? { colSpan: 6, text: T.deviceStates.empty } : null}
        columns={[...STATE_COLUMNS, { text: T.deviceStates.colAction, align: 'right' }]}
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
        <IconMenuItem icon={<VisibilityIcon fontSize="small" />} text={T.deviceStates.view} onClick={pick('view')} />
        {canWrite && (
          <IconMenuItem
            icon={<TuneIcon fontSize="small" />}
            text={T.deviceCommands.changeState}
            onClick={pick('set')}
          />
        )}
        <IconMenuItem
          icon={<DownloadIcon fontSize="small" />}
          text={T.deviceStates.download}
          onClick={pick('download')}
        />
        {canWrite && (
          <IconMenuItem
            icon={<DeleteIcon fontSize="small" color="error" />}
            text={T.deviceStates.remove}
            onClick={pick('remove')}
          />
        )}
      </Menu>
      {id && open?.kind === 'view' && (
        <StateDialog deviceId={id} stateKey={open.row.key} onClose={() => setOpen(null)} />
      )}
      {id && open?.kind === 'set' && (
        <ConfigDialog
          deviceId={id}
          row={stateAsRow(open.row)}
          info={T.deviceCommands.switchOf(open.row.key)}
          onClose={() => setOpen(null)}
        />
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
