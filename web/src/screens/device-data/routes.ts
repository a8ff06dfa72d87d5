// The device data screens (spec 03 section 2.5), read with _device_manage_ or _device_list_ (the server refuses the
// configuration, policy and tag writes to a list-only role).
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

const READ: readonly SysNav[] = ['_device_manage_', '_device_list_'];
const All = lazy(() => import('./DeviceDataAllPage.js').then((m) => ({ default: m.DeviceDataAllPage })));
const Detail = lazy(() => import('./DeviceDataDetailPage.js').then((m) => ({ default: m.DeviceDataDetailPage })));

export const deviceDataRoutes: readonly ScreenRoute[] = [
  { key: '_device_data_all_/{id}', title: T.deviceData.allTitle, grantedBy: READ, screen: All },
  { key: '_device_data_detail_/{id}', title: T.deviceData.detailTitle, grantedBy: READ, screen: Detail },
];
