// What the trigger pickers offer for the chosen device: the points it has stored and declared (its data list), and
// what its family sends by itself (FAMILY_POINTS), so a device without data yet still offers names to choose.
import { useEffect, useState } from 'react';
import { contracts, type DeviceDataRow, type KnownPoint } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';

/** The chosen device's points (sensor, configtype, param); null while they load, empty when none is chosen or it failed. */
export function useDevicePoints(deviceId: number | null): DeviceDataRow[] | null {
  const [rows, setRows] = useState<{ id: number; rows: DeviceDataRow[] } | null>(null);
  useEffect(() => {
    if (!deviceId) return;
    let live = true;
    void api.call(contracts.deviceData.list, { id: deviceId }).then((r) => {
      if (live) setRows({ id: deviceId, rows: isOk(r) ? r.body.data : [] });
    });
    return () => {
      live = false;
    };
  }, [deviceId]);
  if (!deviceId) return [];
  return rows && rows.id === deviceId ? rows.rows : null;
}

const unique = (xs: string[]) => [...new Set(xs)];

/** A family's known point as a data row of the pickers (a `param.subparam` stays one param name). */
const asRow = (p: KnownPoint): Pick<DeviceDataRow, 'sensor' | 'configtype' | 'param' | 'subparam_datatypes'> => ({
  sensor: p.sensor,
  configtype: p.configtype,
  param: p.param,
  subparam_datatypes: {},
});

/**
 * The options of one picker given what the rows before it chose (sensor → configtype → param or param.subparam): the
 * device's own points first, then its family's known ones it has not sent yet.
 */
export function pointOptions(
  points: readonly Pick<DeviceDataRow, 'sensor' | 'configtype' | 'param' | 'subparam_datatypes'>[],
  field: 'SENSOR' | 'CONFIG' | 'PARAM',
  chosen: { sensor?: string; config?: string },
  known: readonly KnownPoint[] = [],
): string[] {
  const all = [...points, ...known.map(asRow)];
  if (field === 'SENSOR') return unique(all.map((p) => p.sensor));
  const ofSensor = all.filter((p) => !chosen.sensor || p.sensor === chosen.sensor);
  if (field === 'CONFIG') return unique(ofSensor.map((p) => p.configtype));
  // a param with subparams is also offered as param.subparam (the engine watches one subparam that way)
  return unique(
    ofSensor
      .filter((p) => !chosen.config || p.configtype === chosen.config)
      .flatMap((p) => [p.param, ...Object.keys(p.subparam_datatypes).map((s) => `${p.param}.${s}`)]),
  );
}
