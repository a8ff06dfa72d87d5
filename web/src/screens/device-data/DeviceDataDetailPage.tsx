// "Daftar Sensor" (spec 03 section 2.5 "Data detail page"): one row per sensor/configtype/param — sensor, configtype,
// param, datatype, subparam, value ("{...}" opens the tree viewer), last updated, action — paged 100/150/200, values
// updated live from the device's MQTT messages. Row menu: Lihat Data, Konfigurasi (not for measured `data` rows, which
// a device reports and cannot be set), Download, Policy, Penanda; the changing ones only for a role that manages devices.
// Above the list, for that role, the device's commands (DeviceCommandsPanel: its family's, its switch-like states).
import { useState, type JSX } from 'react';
import { Box, Button, IconButton, Menu, TableCell, TableRow } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import VisibilityIcon from '@mui/icons-material/Visibility';
import TuneIcon from '@mui/icons-material/Tune';
import DownloadIcon from '@mui/icons-material/Download';
import PolicyIcon from '@mui/icons-material/Policy';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { contracts, sensorKeyOf, T, type DeviceDataRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { useCanReach } from '../../shell/grants.js';
import { canManageDevices } from '../devices/deviceRoutes.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { BrowserPagedTable, useClientPaging } from '../../ui/PagedTable.js';
import { notices } from '../../ui/snackbar/notices.js';
import type { DeviceDataEvent } from '../../live/deviceData.js';
import { ConfigDialog } from './ConfigDialog.js';
import { DataDialog } from './DataDialog.js';
import { ConfigTypeIcon } from './DeviceDataAllPage.js';
import { DownloadDialog } from './DownloadDialog.js';
import { downloadParamCsv } from './download.js';
import { formatTs, formatValue, isStructured } from './format.js';
import { PolicyDialog } from './PolicyDialog.js';
import { SensorTagsDialog } from './SensorTagsDialog.js';
import { TreeDialog } from './TreeDialog.js';
import { DeviceHeading } from './shared/DeviceHeading.js';
import { useDeviceRows } from './shared/useDeviceRows.js';
import { DeviceCommandsPanel } from './shared/DeviceCommandsPanel.js';
import { useDeviceStates } from '../device-states/mergeStates.js';
import { IconMenuItem } from '../../ui/IconMenuItem.js';

const SIZES = [100, 150, 200];
const rowKey = (r: { sensor: string; configtype: string; param: string }) =>
  `${r.sensor}\u001f${r.configtype}\u001f${r.param}`;
/** config types a device reports and cannot be set (the spec leaves the list open) */
export const canConfigure = (r: DeviceDataRow) => r.configtype !== 'data';

type Open = { kind: 'data' | 'config' | 'download' | 'policy' | 'tags' | 'tree'; row: DeviceDataRow };
type MenuKind = Exclude<Open['kind'], 'tree'>;

/** the row menu's entries: reading for everyone who sees the page, changing only for a role that manages devices */
export function sensorMenuKinds(row: DeviceDataRow, canWrite: boolean): MenuKind[] {
  const kinds: MenuKind[] = ['data'];
  if (canWrite && canConfigure(row)) kinds.push('config');
  kinds.push('download');
  if (canWrite) kinds.push('policy', 'tags');
  return kinds;
}
const MENU: Record<MenuKind, { label: string; icon: JSX.Element }> = {
  data: { label: T.deviceData.viewData, icon: <VisibilityIcon fontSize="small" /> },
  config: { label: T.deviceData.config, icon: <TuneIcon fontSize="small" /> },
  download: { label: T.deviceData.download, icon: <DownloadIcon fontSize="small" /> },
  policy: { label: T.deviceData.policy, icon: <PolicyIcon fontSize="small" /> },
  tags: { label: T.deviceData.tags, icon: <LocalOfferIcon fontSize="small" /> },
};

/** applies live points: a param's value (or one of its subparams) and time; an unseen param becomes a new row */
export function mergeRows(rows: DeviceDataRow[], events: readonly DeviceDataEvent[]): DeviceDataRow[] {
  const out = [...rows];
  const index = new Map(out.map((r, i) => [rowKey(r), i]));
  for (const e of events)
    for (const p of e.data) {
      const k = rowKey(p);
      let i = index.get(k);
      if (i === undefined) {
        out.push({
          sensor: p.sensor,
          configtype: p.configtype,
          param: p.param,
          datatype: p.subparam ? 'object' : p.datatype,
          subparam_datatypes: {},
          value: p.subparam ? {} : null,
          ts: null,
          data_exist: false,
        });
        index.set(k, (i = out.length - 1));
      }
      const r = out[i]!;
      if (r.ts !== null && p.ts < r.ts) continue;
      if (p.subparam) {
        const value =
          isStructured(r.value) && !Array.isArray(r.value) ? { ...(r.value as Record<string, unknown>) } : {};
        value[p.subparam] = p.value;
        out[i] = {
          ...r,
          value,
          subparam_datatypes: { ...r.subparam_datatypes, [p.subparam]: p.datatype },
          ts: p.ts,
          data_exist: true,
        };
      } else out[i] = { ...r, value: p.value, ts: p.ts, data_exist: true };
    }
  return out;
}

const fetchList = (id: number) => api.call(contracts.deviceData.list, { id });

export function DeviceDataDetailPage() {
  const { id, device, rows, setRows } = useDeviceRows(fetchList, mergeRows);
  const canWrite = canManageDevices(useCanReach());
  const states = useDeviceStates(canWrite ? id : null);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; row: DeviceDataRow } | null>(null);
  const [open, setOpen] = useState<Open | null>(null);

  const pick = (kind: Open['kind']) => () => {
    if (!menu) return;
    const row = menu.row;
    setMenu(null);
    if ((kind === 'data' || kind === 'download') && !row.data_exist) return void notices.warning(T.deviceData.noData);
    setOpen({ kind, row });
  };
  const close = () => setOpen(null);
  const { shown, pager } = useClientPaging(rows, 100);
  const subparamsOf = (r: DeviceDataRow) => Object.keys(r.subparam_datatypes).join(', ') || '-';

  return (
    <Box sx={{ position: 'relative', minHeight: 200 }}>
      <DeviceHeading title={T.deviceData.detailTitle} device={device} />
      {id && canWrite && device && (
        <DeviceCommandsPanel deviceId={id} category={device.category} states={states.rows} />
      )}
      <BrowserPagedTable
        label={T.deviceData.detailTitle}
        pager={{ ...pager, sizes: SIZES }}
        emptyRow={rows?.length === 0 ? { colSpan: 8, text: T.deviceData.empty } : null}
        columns={[
          T.deviceData.colSensor,
          T.deviceData.colConfigtype,
          T.deviceData.colParam,
          T.deviceData.colDatatype,
          T.deviceData.colSubparam,
          T.deviceData.colValue,
          T.deviceData.colLastUpdated,
          { text: T.deviceData.colAction, align: 'right' },
        ]}
      >
        {shown.map((r) => (
          <TableRow key={rowKey(r)} hover data-testid="sensor-row" data-param={r.param}>
            <TableCell>{r.sensor}</TableCell>
            <TableCell>
              <ConfigTypeIcon configtype={r.configtype} />
              {r.configtype}
            </TableCell>
            <TableCell sx={{ fontWeight: 600 }}>{r.param}</TableCell>
            <TableCell>{r.datatype}</TableCell>
            <TableCell>{subparamsOf(r)}</TableCell>
            <TableCell
              data-testid="sensor-value"
              sx={{ fontFamily: 'monospace', maxWidth: 280, overflowWrap: 'anywhere' }}
            >
              {isStructured(r.value) ? (
                <Button
                  size="small"
                  variant="outlined"
                  onClick={() => setOpen({ kind: 'tree', row: r })}
                  sx={{ fontFamily: 'monospace', minWidth: 0 }}
                >
                  {T.deviceData.objectValue}
                </Button>
              ) : (
                formatValue(r.value)
              )}
            </TableCell>
            <TableCell title={r.ts === null ? '' : String(r.ts)}>{formatTs(r.ts)}</TableCell>
            <TableCell align="right">
              <IconButton
                size="small"
                aria-label={T.deviceData.rowMenu(r.param)}
                aria-haspopup="menu"
                onClick={(e) => setMenu({ anchor: e.currentTarget, row: r })}
              >
                <MoreVertIcon fontSize="small" />
              </IconButton>
            </TableCell>
          </TableRow>
        ))}
      </BrowserPagedTable>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        {menu &&
          sensorMenuKinds(menu.row, canWrite).map((kind) => (
            <IconMenuItem key={kind} onClick={pick(kind)} icon={MENU[kind].icon} text={MENU[kind].label} />
          ))}
      </Menu>
      {id && open?.kind === 'data' && <DataDialog series={{ deviceId: id, ...open.row }} onClose={close} />}
      {id && open?.kind === 'config' && (
        <ConfigDialog
          deviceId={id}
          row={open.row}
          onClose={close}
          // the row shows the value the device accepted, at the moment it did; its next report (live) confirms it
          onSent={(value, ts) =>
            setRows(
              (prev) =>
                prev?.map((r) => (rowKey(r) === rowKey(open.row) ? { ...r, value, ts, data_exist: true } : r)) ?? prev,
            )
          }
        />
      )}
      {id && open?.kind === 'policy' && (
        <PolicyDialog deviceId={id} sensorKey={sensorKeyOf(open.row)} onClose={close} />
      )}
      {id && open?.kind === 'tags' && (
        <SensorTagsDialog deviceId={id} sensorKey={sensorKeyOf(open.row)} onClose={close} />
      )}
      {open?.kind === 'tree' && (
        <TreeDialog
          title={`${open.row.sensor} / ${open.row.configtype} / ${open.row.param}`}
          value={open.row.value}
          onClose={close}
        />
      )}
      {id && open?.kind === 'download' && (
        <DownloadDialog
          title={`${T.deviceData.downloadTitle}: ${open.row.param}`}
          onClose={close}
          onDownload={(choice) => {
            const row = open.row;
            close();
            void downloadParamCsv({ id, label: device?.label ?? '' }, row, choice);
          }}
        />
      )}
      <LoadingOverlay open={rows === null} />
    </Box>
  );
}
