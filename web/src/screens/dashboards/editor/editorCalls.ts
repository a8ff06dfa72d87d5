// The component editor's calls (spec 02 section 7), typed by the dashboards contract (the dashboard by its path is the
// dashboard screens' dashboardByPath): its save with id and conf_dashboard, and the selection trees and tags the query editor and variables choose from.
import { contracts, T, type ConfDashboardInput } from '@sentra/contracts';
import { callAndNotify, callOrThrow } from '../../../api/call.js';
import { EMPTY_SOURCE, type SelectionSource } from './selectionSource.js';

/** "A layout save or component change sends id and conf_dashboard"; a failure is shown as its notice. */
export const saveConf = (id: number, conf: ConfDashboardInput) =>
  callAndNotify(contracts.dashboards.edit, { id, conf_dashboard: conf }, T.dashboards.notify.editFailed);

export interface SourceFilter {
  tags?: readonly string[];
  /** command targets: only config types that accept writes */
  config?: boolean;
}

/** The device and sensor trees (filtered by the card's tags) and every tag. A failed fetch gives an empty part. */
export async function loadSource(filter: SourceFilter = {}): Promise<SelectionSource> {
  const query = {
    ...(filter.tags?.length ? { tags: [...filter.tags] } : {}),
    ...(filter.config ? { config: true } : {}),
  };
  // a part that failed is empty, silently: the pickers then offer nothing, as with no data
  const quietly = <O>(p: Promise<O>) => p.catch(() => undefined);
  const [devices, sensors, tags] = await Promise.all([
    quietly(callOrThrow(contracts.dashboards.devices, query, T.shell.loadFailed)),
    quietly(callOrThrow(contracts.dashboards.sensors, query, T.shell.loadFailed)),
    quietly(callOrThrow(contracts.dashboards.tags, {}, T.shell.loadFailed)),
  ]);
  return {
    devices: devices?.devices ?? EMPTY_SOURCE.devices,
    devices_label: devices?.devices_label ?? EMPTY_SOURCE.devices_label,
    devices_serial: devices?.devices_serial ?? {},
    sensors: sensors?.sensors ?? EMPTY_SOURCE.sensors,
    tags: tags?.tags ?? EMPTY_SOURCE.tags,
    ...(filter.tags?.length ? { filterTags: [...filter.tags] } : {}),
  };
}
