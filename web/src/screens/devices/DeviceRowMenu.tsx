// A device row's "Aksi" menu (spec 03 section 2.1): Dashboard, Semua Data, Daftar Sensor, Daftar Kondisi, Edit Info,
// the entry of the device's family (its info screen), Konfigurasi, Penanda (only when tag categories exist), Hapus.
import { Menu } from '@mui/material';
import { useCanReach } from '../../shell/grants.js';
import DashboardIcon from '@mui/icons-material/Dashboard';
import TableChartIcon from '@mui/icons-material/TableChart';
import SensorsIcon from '@mui/icons-material/Sensors';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import EditIcon from '@mui/icons-material/Edit';
import InfoIcon from '@mui/icons-material/Info';
import SettingsIcon from '@mui/icons-material/Settings';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import DeleteIcon from '@mui/icons-material/Delete';
import { T, familyByCategory, type DeviceSummary } from '@sentra/contracts';
import { canManageDevices, DeviceRoute, infoRouteOf } from './deviceRoutes.js';
import { IconMenuItem } from '../../ui/IconMenuItem.js';

export type RowAction =
  { kind: 'go'; key: string; params: Record<string, string | number> } | { kind: 'dashboard' } | { kind: 'remove' };

/** Entries whose screen (or, for Hapus, whose write) the principal may not reach are left out: a list-only role reads. */
export function rowMenuEntries(
  device: DeviceSummary,
  hasTagCategories: boolean,
  canReach: (routeKey: string) => boolean = () => true,
) {
  const id = device.id;
  const family = familyByCategory(device.category);
  const info = infoRouteOf(device.category, id);
  const go = (key: string, params: Record<string, string | number> = { id }): RowAction => ({
    kind: 'go',
    key,
    params,
  });
  const canWrite = canManageDevices(canReach);
  const entries = [
    {
      key: 'dashboard',
      label: T.devices.menuDashboard,
      icon: <DashboardIcon fontSize="small" />,
      action: family?.key === 'dummy' ? ({ kind: 'dashboard' } as RowAction) : go('_dashboard_list_', {}),
    },
    {
      key: 'data',
      label: T.devices.menuDataAll,
      icon: <TableChartIcon fontSize="small" />,
      action: go(DeviceRoute.dataAll),
    },
    {
      key: 'detail',
      label: T.devices.menuDataDetail,
      icon: <SensorsIcon fontSize="small" />,
      action: go(DeviceRoute.dataDetail),
    },
    {
      key: 'state',
      label: T.devices.menuState,
      icon: <FactCheckIcon fontSize="small" />,
      action: go(DeviceRoute.state),
    },
    {
      key: 'edit',
      label: T.devices.menuEditInfo,
      icon: <EditIcon fontSize="small" />,
      action: go(DeviceRoute.editInfo),
    },
    {
      key: 'info',
      label: (family && T.devices.familyInfoTitle[family.key]) || T.devices.infoTitle,
      icon: <InfoIcon fontSize="small" />,
      action: go(info.key, info.params),
    },
    {
      key: 'sensors',
      label: T.devices.menuConfig,
      icon: <SettingsIcon fontSize="small" />,
      action: go(DeviceRoute.editSensors),
    },
    ...(hasTagCategories
      ? [
          {
            key: 'tags',
            label: T.devices.menuTags,
            icon: <LocalOfferIcon fontSize="small" />,
            action: go(DeviceRoute.editTags),
          },
        ]
      : []),
    {
      key: 'remove',
      label: T.devices.menuRemove,
      icon: <DeleteIcon fontSize="small" color="error" />,
      action: { kind: 'remove' } as RowAction,
    },
  ];
  return entries.filter((e) =>
    e.action.kind === 'go'
      ? canReach(e.action.key)
      : e.action.kind === 'remove'
        ? canWrite
        : canReach('_dashboard_list_'),
  );
}

export function DeviceRowMenu({
  anchor,
  device,
  hasTagCategories,
  onClose,
  onAction,
}: {
  anchor: HTMLElement | null;
  device: DeviceSummary | null;
  hasTagCategories: boolean;
  onClose(): void;
  onAction(a: RowAction, d: DeviceSummary): void;
}) {
  const canReach = useCanReach();
  return (
    <Menu anchorEl={anchor} open={Boolean(anchor && device)} onClose={onClose}>
      {device &&
        rowMenuEntries(device, hasTagCategories, canReach).map((e) => (
          <IconMenuItem
            key={e.key}
            onClick={() => {
              onClose();
              onAction(e.action, device);
            }}
            icon={e.icon}
            text={e.label}
          />
        ))}
    </Menu>
  );
}
