// What the trigger pickers offer: the application's real devices (device → sensor → config → param), from the device
// list call and the chosen device's data list (its stored and declared points).
import { useEffect, useState } from 'react';
import { contracts, type DeviceDataRow, type DeviceSummary } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';

/** the pickers list this many devices (the list call's page limit); another id can still be typed in the JSON form */
export const PICKER_DEVICES = 100;

export function useRuleDevices(): DeviceSummary[] | null {
  const [devices, setDevices] = useState<DeviceSummary[] | null>(null);
  useEffect(() => {
    let live = true;
    void api.call(contracts.devices.filter, { page: 0, size: PICKER_DEVICES }).then((r) => {
      if (live) setDevices(isOk(r) ? r.body.devices : []);
    });
    return () => {
      live = false;
    };
  }, []);
  return devices;
}

/** The chosen device's points (sensor, configtype, param); empty while none is chosen or it failed. */
export function useDevicePoints(deviceId: number | null): DeviceDataRow[] {
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
  return rows && rows.id === deviceId ? rows.rows : [];
}

const unique = (xs: string[]) => [...new Set(xs)];

/** The options of one picker given what the rows before it chose (sensor → configtype → param or param.subparam). */
export function pointOptions(
  points: readonly DeviceDataRow[],
  field: 'SENSOR' | 'CONFIG' | 'PARAM',
  chosen: { sensor?: string; config?: string },
): string[] {
  if (field === 'SENSOR') return unique(points.map((p) => p.sensor));
  const ofSensor = points.filter((p) => !chosen.sensor || p.sensor === chosen.sensor);
  if (field === 'CONFIG') return unique(ofSensor.map((p) => p.configtype));
  // a param with subparams is also offered as param.subparam (the engine watches one subparam that way)
  return unique(
    ofSensor
      .filter((p) => !chosen.config || p.configtype === chosen.config)
      .flatMap((p) => [p.param, ...Object.keys(p.subparam_datatypes).map((s) => `${p.param}.${s}`)]),
  );
}
