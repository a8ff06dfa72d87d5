// The device state list (spec 03 section 2.6), read with _device_manage_ or _device_list_ (Hapus, refused by the
// server to a list-only role, is not offered to it).
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

const READ: readonly SysNav[] = ['_device_manage_', '_device_list_'];
const States = lazy(() => import('./DeviceStatePage.js').then((m) => ({ default: m.DeviceStatePage })));

export const deviceStateRoutes: readonly ScreenRoute[] = [
  { key: '_device_state_/{id}', title: T.deviceStates.title, grantedBy: READ, screen: States },
];
