// Device state calls (contracts/src/http/states.ts): the "Daftar Kondisi" list, a state's history by time or newest N,
// and "Hapus". The device is found in the caller's application first (else 404).
import { statesContract } from '@sentra/contracts';
import { notFound } from '../../platform/http/errors.js';
import { implement, type BoundRoute } from '../../platform/http/mount.js';
import type { DeviceService } from '../devices/devices.service.js';
import type { StatesStore } from './states.store.js';
import { STATE_RANGE_MAX } from '@sentra/contracts';

export function statesRoutes({
  devices,
  states,
  onRemoved,
}: {
  devices: Pick<DeviceService, 'rowOf'>;
  states: StatesStore;
  onRemoved?: (appId: number, deviceId: number, key: string) => void;
}): BoundRoute[] {
  return implement(statesContract, {
    list: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.device_id);
      return { states: await states.list(row.appId, row.id), device_label: row.label ?? row.name, device_id: row.id };
    },
    periodic: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.device_id);
      const { rows, truncated } = await states.periodic(
        row.appId,
        row.id,
        input.key,
        input.start,
        input.end,
        STATE_RANGE_MAX,
      );
      return { state_data: rows, truncated };
    },
    newest: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.device_id);
      return { state_data: await states.newest(row.appId, row.id, input.key, input.n) };
    },
    remove: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.device_id);
      if (!(await states.remove(row.appId, row.id, input.key))) throw notFound();
      onRemoved?.(row.appId, row.id, input.key);
      return {};
    },
  });
}
