// Devices' persistence.
import { asc, eq } from 'drizzle-orm';
import type { AppStore } from '../../db.js';
import { devices } from './devices.table.js';

/** A device as the card editor's selection lists it: names, its declared sensors and its tags (JSON text). */
export interface SelectionDevice {
  id: number;
  name: string;
  label: string | null;
  serial: string;
  sensors: string;
  tags: string;
}

/** The application's devices for the card editor's selection (dashboards domain), by id. */
export function devicesForSelection(store: AppStore, appId: number): Promise<SelectionDevice[]> {
  return store.db
    .select({
      id: devices.id,
      name: devices.name,
      label: devices.label,
      serial: devices.serialNumber,
      sensors: devices.sensors,
      tags: devices.tags,
    })
    .from(devices)
    .where(eq(devices.appId, appId))
    .orderBy(asc(devices.id));
}
