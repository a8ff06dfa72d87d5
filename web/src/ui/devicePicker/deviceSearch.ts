// The device pickers' search, on the server (device/pick): one page of the whole application's devices matching what
// was typed (name, serial number, id), and the names of the devices a picker already holds. Every device seen is
// remembered for the page's life, so a held value shows its name without asking again.
import { contracts, type DeviceChoice } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';

/** how many devices one search shows: enough to choose from, few enough to read; typing narrows the rest */
export const PICK_PAGE = 20;

export interface DevicePage {
  devices: DeviceChoice[];
  total: number;
}

const known = new Map<number, DeviceChoice>();
const remember = (devices: readonly DeviceChoice[]) => devices.forEach((d) => known.set(d.id, d));

/** A device the page has seen (a search answer, a held value), or undefined. */
export const knownDevice = (id: number): DeviceChoice | undefined => known.get(id);

/** The first page of devices matching `search` ('' = the whole application), narrowed to `tags` when given. */
export async function searchDevices(search: string, tags: readonly string[] = []): Promise<DevicePage> {
  const r = await api.call(contracts.devices.pick, {
    ...(search.trim() ? { search: search.trim() } : {}),
    ...(tags.length ? { tags: [...tags] } : {}),
    size: PICK_PAGE,
  } as never);
  if (!isOk(r)) return { devices: [], total: 0 };
  remember(r.body.devices);
  return { devices: r.body.devices, total: r.body.total };
}

/** Names the held devices the page has not seen yet (one call); ids of no device of the application stay unknown. */
export async function loadDevices(ids: readonly number[]): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0 && !known.has(id));
  if (missing.length === 0) return;
  const r = await api.call(contracts.devices.pick, { ids: missing.slice(0, 50), size: 50 } as never);
  if (isOk(r)) remember(r.body.devices);
}

/** The line under a device's name: its serial number and id. */
export const deviceDetail = (d: Pick<DeviceChoice, 'id' | 'serial_number'>) =>
  d.serial_number ? `${d.serial_number} · #${d.id}` : `#${d.id}`;
