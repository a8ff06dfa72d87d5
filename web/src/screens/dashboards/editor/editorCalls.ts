// The component editor's calls (spec 02 section 7), typed by the dashboards contract (the dashboard by its path is the
// dashboard screens' dashboardByPath): its save with id and conf_dashboard, and the selection trees and tags the query editor and variables choose from.
import { contracts, T, type ConfDashboardInput } from '@sentra/contracts';
import { api } from '../../../api/client.js';
import { isOk, type ApiResult } from '../../../api/request.js';
import { failureMessage } from '../../../api/outcome.js';
import { EMPTY_SOURCE, type SelectionSource } from './selectionSource.js';

/** Is this failure one the shell already handles (401 sign-in, 402 billing)? */
export const handledGlobally = (r: ApiResult<unknown> | undefined) => r?.code === 401 || r?.code === 402;

/** "A layout save or component change sends id and conf_dashboard." */
export async function saveConf(
  id: number,
  conf: ConfDashboardInput,
): Promise<{ ok: true; path: string } | { ok: false; message: string; result: ApiResult<unknown> }> {
  const r = await api.call(contracts.dashboards.edit, { id, conf_dashboard: conf });
  if (isOk(r)) return { ok: true, path: r.body.path };
  return { ok: false, result: r, message: failureMessage(r, { fallback: T.dashboards.notify.editFailed }) };
}

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
  const [devices, sensors, tags] = await Promise.all([
    api.call(contracts.dashboards.devices, query),
    api.call(contracts.dashboards.sensors, query),
    api.call(contracts.dashboards.tags, {}),
  ]);
  return {
    devices: isOk(devices) ? devices.body.devices : EMPTY_SOURCE.devices,
    devices_label: isOk(devices) ? devices.body.devices_label : EMPTY_SOURCE.devices_label,
    devices_serial: isOk(devices) ? (devices.body.devices_serial ?? {}) : {},
    sensors: isOk(sensors) ? sensors.body.sensors : EMPTY_SOURCE.sensors,
    tags: isOk(tags) ? tags.body.tags : EMPTY_SOURCE.tags,
  };
}
