// Loads the device of an `{id}` route for the edit screens; a failed load stops the indicator and shows nothing else.
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import type { Device } from '@sentra/contracts';
import { getDevice } from './deviceCalls.js';

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
