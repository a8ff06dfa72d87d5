// The rows of a device's data screen: loaded once for the device in the address (its label and status beside them),
// an empty list when there is no device or the call fails, then kept current by the device's live messages; its
// On/Off status follows the application's live device status.
import { useCallback, useEffect, useState } from 'react';
import type { DataDevice } from '@sentra/contracts';
import { isOk } from '../../../api/request.js';
import { useLiveDeviceData, type DeviceDataEvent } from '../../../live/deviceData.js';
import { useLiveDeviceStatus, withOwnStatus } from '../../../live/deviceStatus.js';
import { useDeviceId } from '../useDeviceId.js';

type DeviceRowsAnswer<Row> = Parameters<typeof isOk<{ device: DataDevice; data: Row[] }>>[0];

/** `fetchRows` is a module-level function (a new one each render would load again each render). */
export function useDeviceRows<Row>(
  fetchRows: (id: number) => Promise<DeviceRowsAnswer<Row>>,
  merge: (rows: Row[], events: readonly DeviceDataEvent[]) => Row[],
) {
  const id = useDeviceId();
  const [device, setDevice] = useState<DataDevice | null>(null);
  const [rows, setRows] = useState<Row[] | null>(null);

  const load = useCallback(async () => {
    if (!id) return setRows([]);
    const r = await fetchRows(id);
    if (isOk(r)) {
      setDevice(r.body.device);
      setRows(r.body.data);
    } else setRows([]);
  }, [id, fetchRows]);
  useEffect(() => void load(), [load]);
  useLiveDeviceData(id, (events) =>
    setRows((prev) =>
      prev
        ? merge(
            prev,
            events.filter((e) => e.device_id === id),
          )
        : prev,
    ),
  );
  // the heading's On/Off chip follows the device like the list's does (same `devices` channel)
  useLiveDeviceStatus((changes) => setDevice((prev) => withOwnStatus(prev, changes)));
  return { id, device, rows, setRows };
}
