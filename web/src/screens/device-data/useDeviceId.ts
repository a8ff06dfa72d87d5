// The device id of the data and state routes (`_device_data_detail_/{id}` ...).
import { useParams } from 'react-router';

export function useDeviceId(): number | null {
  const { id } = useParams();
  const n = Number(id);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
