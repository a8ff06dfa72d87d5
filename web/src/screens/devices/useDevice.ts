// Loads the device of an `{id}` route for the edit screens; a failed load stops the indicator and shows nothing else.
// `useDeviceEdit` adds what the edit screens share: the save with its notices and the way back to the list.
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { T, type Device } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { DeviceRoute } from './deviceRoutes.js';
import { DeviceCallError, getDevice } from './deviceCalls.js';

export function useDevice(): { id: number; device: Device | null; loading: boolean } {
  const { id = '' } = useParams();
  const deviceId = Number(id);
  const [device, setDevice] = useState<Device | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    if (!Number.isInteger(deviceId) || deviceId <= 0) {
      setLoading(false);
      return;
    }
    setLoading(true);
    getDevice(deviceId)
      .then(setDevice, () => setDevice(null))
      .finally(() => setLoading(false));
  }, [deviceId]);
  return { id: deviceId, device, loading };
}

/**
 * An edit screen of the route's device: `save` runs the edit with the form busy, then says "Edit Perangkat Sukses" and
 * returns to the list, or hands the failure to `failed` and shows its message (the form stays). `formCard` is what the
 * screen's FormCard takes besides its submit.
 */
export function useDeviceEdit() {
  const area = useAppArea();
  const navigate = useNavigate();
  const { id, device, loading } = useDevice();
  const [busy, setBusy] = useState(false);
  const toList = () => navigate(area.to(DeviceRoute.list));
  const save = async (edit: () => Promise<unknown>, failed?: (err: unknown) => void) => {
    setBusy(true);
    try {
      await edit();
      notices.success(T.devices.editSuccess);
      toList();
    } catch (err) {
      failed?.(err);
      notices.error(err instanceof DeviceCallError ? err.message : T.devices.editFailed);
      setBusy(false);
    }
  };
  return { id, device, busy, save, formCard: { onCancel: toList, busy, loading, canSave: Boolean(device) } };
}
