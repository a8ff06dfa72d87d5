// "Perangkat" (spec 03 section 2.1): the application's devices with search, status and type filters, tag chips, the row
// menu, the bulk bar "Tindakan" (Hapus device after one confirmation, Reboot and Kirim command through the single
// device's calls), paging kept in session storage, filters in the address, the floating "Alat Baru" button, delete with
// "Konfirmasi Hapus Perangkat" and "Tambah Dashboard" for dummy devices.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  Box,
  Button,
  Checkbox,
  Chip,
  FormControl,
  IconButton,
  ListItemText,
  Menu,
  MenuItem,
  OutlinedInput,
  Select,
  Stack,
  TableCell,
  TableRow,
  Toolbar,
  Tooltip,
  Typography,
} from '@mui/material';
import { useCanReach } from '../../shell/grants.js';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import BlockIcon from '@mui/icons-material/Block';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import {
  DEVICE_PAGE_SIZES,
  T,
  contracts,
  deviceTypes,
  type CommandInput,
  type DeviceSummary,
  type TagCategory,
} from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { failureMessage } from '../../api/outcome.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { useRowSelection } from '../../ui/useRowSelection.js';
import { useConfirm } from '../../ui/ConfirmDialog.js';
import { useConfirmedAction } from '../../api/confirmed.js';
import { notices } from '../../ui/snackbar/notices.js';
import { SearchBox } from '../../ui/SearchBox.js';
import { ListHeading, PagedTable, usePagedRows } from '../../ui/PagedTable.js';
import { NARROW_MAX } from '../../ui/theme.js';
import { generateDashboard, listDevices, loadTagCategories, removeDevice, DeviceCallError } from './deviceCalls.js';
import {
  filtersFromSearch,
  filtersToSearch,
  useStoredPaging,
  type DeviceListFilters,
  type DeviceStatusFilter as Status,
} from './listState.js';
import { tagFilterOptions } from './tagValues.js';
import { DeviceRowMenu, type RowAction } from './DeviceRowMenu.js';
import { AddDeviceBar, TagChips, TagFilter } from './DeviceListParts.js';
import { ControlDialog, DashboardDialog } from './DeviceListDialogs.js';
import { REBOOT_COMMAND, runForEach, type BulkOutcome, type CommandForm } from './bulkActions.js';
import { DeviceRoute } from './deviceRoutes.js';
import { useLiveDeviceStatus, withDeviceStatus } from '../../live/deviceStatus.js';

const STATUS_LABEL: Record<Status, string> = { on: T.devices.online, off: T.devices.offline };
const TYPE_LABEL = Object.fromEntries(deviceTypes.map((t) => [t.deviceType, t.label]));

const errorOf = (e: unknown, fallback: string) => (e instanceof DeviceCallError && e.message ? e.message : fallback);

export function DeviceListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const canReach = useCanReach();
  const confirm = useConfirm();
  const { busy: acting, act: confirmed } = useConfirmedAction();
  const [paging, setPaging] = useStoredPaging(area.domain);
  // the filters are the address's: a reload or a shared link shows the same list
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const { search, status, type, tag } = filters;
  const setFilter = (change: Partial<DeviceListFilters>) =>
    setParams(filtersToSearch({ ...filters, ...change }), { replace: true });
  const [working, setBusy] = useState(false);
  const busy = working || acting;
  const [categories, setCategories] = useState<TagCategory[]>([]);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; device: DeviceSummary } | null>(null);
  const [bulkAnchor, setBulkAnchor] = useState<HTMLElement | null>(null);
  // the Reboot / Kirim command dialog, and each device's outcome once sent
  const [control, setControl] = useState<{
    action: string;
    initial?: CommandForm;
    outcomes: BulkOutcome<DeviceSummary>[] | null;
  } | null>(null);
  const [dashboardFor, setDashboardFor] = useState<DeviceSummary | null>(null);

  const fetchPage = useCallback(
    () =>
      listDevices({
        search: search || undefined,
        status: status.length ? status.join(',') : undefined,
        type: type || undefined,
        tag: tag || undefined,
        page: paging.page,
        size: paging.size,
      }).then((r) => ({
        rows: r.devices,
        total: r.total,
      })),
    [search, status, type, tag, paging],
  );
  // the page is past the end (devices removed elsewhere, a stored page): show the last page instead
  const goToPage = useCallback((page: number) => setPaging({ ...paging, page }), [paging, setPaging]);
  const { rows, setRows, total, loading, load } = usePagedRows(fetchPage, {
    page: paging.page,
    size: paging.size,
    goTo: goToPage,
  });
  useLiveDeviceStatus((changes) => setRows((prev) => withDeviceStatus(prev, changes)));
  const { checked, allChecked, someChecked, toggleAll, toggle, uncheck, checkOnly } = useRowSelection(rows);

  useEffect(() => {
    loadTagCategories().then(setCategories, () => setCategories([]));
  }, []);

  const filtered = Boolean(search || status.length || type || tag);
  const tagOptions = useMemo(() => tagFilterOptions(categories), [categories]);
  const applyFilter = (f: () => void) => {
    f();
    checkOnly();
    if (paging.page !== 0) setPaging({ ...paging, page: 0 });
  };

  const remove = (d: DeviceSummary) =>
    confirmed({
      ask: { title: T.devices.removeConfirmTitle, message: T.devices.removeConfirm(d.name, d.serial_number) },
      run: () => removeDevice(d),
      success: T.devices.removeSuccess,
      failed: T.devices.removeFailed,
      done: async () => {
        uncheck(d.id);
        await load();
      },
    });

  const onAction = (a: RowAction, d: DeviceSummary) => {
    if (a.kind === 'go') navigate(area.to(a.key, a.params));
    else if (a.kind === 'dashboard') setDashboardFor(d);
    else void remove(d);
  };

  const makeDashboard = async (name: string) => {
    if (!dashboardFor) return;
    setBusy(true);
    try {
      await generateDashboard(name, dashboardFor.id);
      notices.success(T.devices.dashboardSuccess);
      setDashboardFor(null);
      navigate(area.to('_dashboard_list_'));
    } catch (e) {
      notices.error(errorOf(e, T.devices.dashboardFailed));
    } finally {
      setBusy(false);
    }
  };

  const bulk = (action: 'remove' | 'reboot' | 'command') => {
    setBulkAnchor(null);
    if (action === 'remove') void removeChecked();
    else
      setControl(
        action === 'reboot'
          ? { action: T.devices.bulkReboot, initial: REBOOT_COMMAND, outcomes: null }
          : { action: T.devices.bulkCommand, outcomes: null },
      );
  };

  /**
   * "Hapus device": after one confirmation, each chosen device by the single delete; the failed ones stay chosen. Not a
   * confirmed action: many calls, and one notice that counts the removed and names each failure.
   */
  const removeChecked = async () => {
    const chosen = [...checked.values()];
    if (!(await confirm({ title: T.devices.removeConfirmTitle, message: T.devices.bulkRemoveConfirm(chosen.length) })))
      return;
    setBusy(true);
    const done = await runForEach(chosen, (d) => removeDevice(d));
    const ok = done.filter((o) => o.ok).length;
    const failed = done.filter((o) => !o.ok);
    const notice = notices.about('devices.bulkRemove');
    if (failed.length === 0) notice.success(T.devices.bulkRemoveDone(ok, done.length));
    else
      notice.error(
        [
          T.devices.bulkRemoveDone(ok, done.length),
          ...failed.map((o) => `${o.device.name}: ${o.reason ?? T.devices.removeFailed}`),
        ].join(' · '),
      );
    checkOnly(failed.map((o) => o.device));
    await load();
    setBusy(false);
  };

  /** Reboot / Kirim command: the configuration call of a single device, for each chosen device */
  const sendCommand = async (command: CommandInput) => {
    setBusy(true);
    const done = await runForEach([...checked.values()], async (d) => {
      const r = await api.call(contracts.commands.configure, { id: d.id, ...command } as never);
      if (!isOk(r)) throw new Error(failureMessage(r, { byCode: contracts.commands.configure.errors, fallback: '' }));
    });
    setControl((c) => c && { ...c, outcomes: done });
    setBusy(false);
    const ok = done.filter((o) => o.ok).length;
    const notice = notices.about('devices.bulkCommand');
    if (ok === done.length) notice.success(T.devices.controlDone(ok, done.length));
    else notice.error(T.devices.controlDone(ok, done.length));
  };

  const typeOptions = useMemo(() => deviceTypes, []);

  return (
    <Box sx={{ position: 'relative' }}>
      <ListHeading title={T.devices.title} subtitle={T.devices.subtitle} />

      <Box
        data-testid="device-filters"
        sx={{
          display: 'flex',
          gap: 1.5,
          mb: 2,
          flexDirection: 'column',
          alignItems: 'stretch',
          [`@media (min-width: ${NARROW_MAX}px)`]: { flexDirection: 'row', alignItems: 'center' },
        }}
      >
        <SearchBox
          placeholder={T.devices.search}
          buttonLabel={T.devices.searchButton}
          initial={search}
          onSearch={(s) => applyFilter(() => setFilter({ search: s }))}
          width={340}
        />
        <FormControl size="small" sx={{ minWidth: 180 }}>
          <Select
            multiple
            displayEmpty
            value={status}
            input={<OutlinedInput />}
            inputProps={{ 'aria-label': T.devices.statusFilter }}
            onChange={(e) =>
              applyFilter(() =>
                setFilter({
                  status: (typeof e.target.value === 'string' ? e.target.value.split(',') : e.target.value) as Status[],
                }),
              )
            }
            renderValue={(v) => (v.length === 0 ? T.devices.allStatus : v.map((s) => STATUS_LABEL[s]).join(', '))}
          >
            {(['on', 'off'] as const).map((s) => (
              <MenuItem key={s} value={s}>
                <Checkbox size="small" checked={status.includes(s)} />
                <ListItemText primary={STATUS_LABEL[s]} />
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl size="small" sx={{ minWidth: 220 }}>
          <Select
            displayEmpty
            value={type}
            inputProps={{ 'aria-label': T.devices.typeFilter }}
            onChange={(e) => applyFilter(() => setFilter({ type: e.target.value }))}
          >
            <MenuItem value="">{T.devices.allTypes}</MenuItem>
            {typeOptions.map((t) => (
              <MenuItem key={t.deviceType} value={t.deviceType}>
                {t.label}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <TagFilter options={tagOptions} value={tag} onChange={(t) => applyFilter(() => setFilter({ tag: t }))} />
      </Box>

      <PagedTable
        label={T.devices.title}
        minHeight={240}
        rowCount={rows?.length ?? null}
        loading={loading}
        busy={busy}
        empty={
          filtered
            ? { title: T.devices.notFound, hint: T.devices.notFoundHint }
            : { title: T.devices.empty, hint: T.devices.emptyHint }
        }
        pager={{ total, paging, sizes: DEVICE_PAGE_SIZES, onPaging: setPaging }}
        top={
          checked.size > 0 && (
            <Toolbar
              data-testid="bulk-bar"
              sx={{ bgcolor: 'primary.50', backgroundColor: 'rgba(13,71,161,0.08)', gap: 2 }}
            >
              <Typography sx={{ flex: 1 }}>{T.devices.bulkSelected(checked.size)}</Typography>
              <Button
                variant="contained"
                endIcon={<ArrowDropDownIcon />}
                onClick={(e) => setBulkAnchor(e.currentTarget)}
              >
                {T.devices.bulkActions}
              </Button>
              <Menu anchorEl={bulkAnchor} open={Boolean(bulkAnchor)} onClose={() => setBulkAnchor(null)}>
                <MenuItem onClick={() => bulk('remove')}>{T.devices.bulkRemove}</MenuItem>
                <MenuItem onClick={() => bulk('reboot')}>{T.devices.bulkReboot}</MenuItem>
                <MenuItem onClick={() => bulk('command')}>{T.devices.bulkCommand}</MenuItem>
              </Menu>
            </Toolbar>
          )
        }
        head={
          <>
            <TableCell padding="checkbox">
              <Checkbox
                checked={allChecked}
                indeterminate={someChecked && !allChecked}
                onChange={toggleAll}
                slotProps={{ input: { 'aria-label': T.devices.selectAll } }}
              />
            </TableCell>
            <TableCell>{T.devices.colDevice}</TableCell>
            <TableCell>{T.devices.colStatus}</TableCell>
            <TableCell>{T.devices.colSerial}</TableCell>
            <TableCell>{T.devices.colTags}</TableCell>
            <TableCell align="right">{T.devices.colActions}</TableCell>
          </>
        }
      >
        {rows?.map((d) => (
          <TableRow key={d.id} hover data-testid="device-row" selected={checked.has(d.id)}>
            <TableCell padding="checkbox">
              <Checkbox
                checked={checked.has(d.id)}
                onChange={() => toggle(d)}
                slotProps={{ input: { 'aria-label': T.devices.selectRow(d.name) } }}
              />
            </TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                <Typography sx={{ fontWeight: 600 }}>{d.name}</Typography>
                {d.disabled && (
                  <Tooltip title={T.devices.disabled}>
                    <BlockIcon fontSize="small" color="error" aria-label={T.devices.disabled} />
                  </Tooltip>
                )}
              </Stack>
              <Typography
                variant="body2"
                color="text.secondary"
              >{`${TYPE_LABEL[d.deviceType] ?? d.deviceType} · #${d.id}`}</Typography>
            </TableCell>
            <TableCell>
              <Chip
                size="small"
                label={d.online ? T.devices.online : T.devices.offline}
                color={d.online ? 'success' : 'default'}
                variant={d.online ? 'filled' : 'outlined'}
              />
            </TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{d.serial_number}</TableCell>
            <TableCell>
              <TagChips device={d} categories={categories} />
            </TableCell>
            <TableCell align="right">
              <IconButton
                aria-label={T.devices.rowMenu(d.name)}
                aria-haspopup="menu"
                onClick={(e) => setMenu({ anchor: e.currentTarget, device: d })}
              >
                <MoreVertIcon />
              </IconButton>
            </TableCell>
          </TableRow>
        ))}
      </PagedTable>

      {canReach(DeviceRoute.add) && <AddDeviceBar onAdd={() => navigate(area.to(DeviceRoute.add))} />}

      <DeviceRowMenu
        anchor={menu?.anchor ?? null}
        device={menu?.device ?? null}
        hasTagCategories={categories.length > 0}
        onClose={() => setMenu(null)}
        onAction={onAction}
      />
      <ControlDialog
        open={control !== null}
        action={control?.action ?? ''}
        initial={control?.initial}
        devices={[...checked.values()]}
        busy={busy}
        outcomes={control?.outcomes ?? null}
        onClose={() => setControl(null)}
        onSend={(command) => void sendCommand(command)}
      />
      <DashboardDialog
        device={dashboardFor}
        busy={busy}
        onClose={() => setDashboardFor(null)}
        onSubmit={(name) => void makeDashboard(name)}
      />
    </Box>
  );
}
