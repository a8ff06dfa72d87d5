// The device screens inside an application (spec 03 sections 2.1–2.4, 2.7): reading ones granted by _device_manage_ or
// _device_list_, the wizard and the edit screens by _device_manage_ (the server refuses their writes to a list-only
// role). The data and state destinations belong to the telemetry issue and stay labelled "not built" until then.
import { lazy } from 'react';
import { T, type SysNav } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';
import { DeviceRoute } from './deviceRoutes.js';

const READ: readonly SysNav[] = ['_device_manage_', '_device_list_'];
const WRITE: readonly SysNav[] = ['_device_manage_'];

const List = lazy(() => import('./DeviceListPage.js').then((m) => ({ default: m.DeviceListPage })));
const Wizard = lazy(() => import('./DeviceWizardPage.js').then((m) => ({ default: m.DeviceWizardPage })));
const Info = lazy(() => import('./DeviceInfoPage.js').then((m) => ({ default: m.DeviceInfoPage })));
const EditInfo = lazy(() => import('./DeviceEditInfoPage.js').then((m) => ({ default: m.DeviceEditInfoPage })));
const EditSensors = lazy(() =>
  import('./DeviceEditSensorsPage.js').then((m) => ({ default: m.DeviceEditSensorsPage })),
);
const EditTags = lazy(() => import('./DeviceEditTagsPage.js').then((m) => ({ default: m.DeviceEditTagsPage })));

const title = T.nav.devices;
const wizardKeys = [
  DeviceRoute.add,
  DeviceRoute.addInfo,
  DeviceRoute.addTagCategories,
  DeviceRoute.addTags,
  DeviceRoute.addSensors,
  DeviceRoute.addActivation,
  DeviceRoute.addActivationOf,
];

export const deviceRoutes: readonly ScreenRoute[] = [
  { key: DeviceRoute.list, title, grantedBy: READ, screen: List },
  ...wizardKeys.map((key) => ({ key, title: T.devices.addTitle, grantedBy: WRITE, screen: Wizard })),
  { key: DeviceRoute.info, title, grantedBy: READ, screen: Info },
  { key: DeviceRoute.familyInfo, title, grantedBy: READ, screen: Info },
  { key: DeviceRoute.editInfo, title, grantedBy: WRITE, screen: EditInfo },
  { key: DeviceRoute.editSensors, title, grantedBy: WRITE, screen: EditSensors },
  { key: DeviceRoute.editTags, title, grantedBy: WRITE, screen: EditTags },
  { key: DeviceRoute.editTagValues, title, grantedBy: WRITE, screen: EditTags },
];

/** The telemetry issue's destinations of the row menu (Semua Data, Daftar Sensor, Daftar Kondisi). */
export const deviceDataKeys = [DeviceRoute.dataAll, DeviceRoute.dataDetail, DeviceRoute.state] as const;
