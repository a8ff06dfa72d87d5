// The configuration dialog's call (POST /fetch/web/device/p/{id}): through the bus to the device and back.
import { commandsContract } from '@sentra/contracts';
import { implement, type BoundRoute } from '../../platform/http/mount.js';
import type { DeviceService } from '../devices/devices.service.js';
import type { Commands } from './commands.service.js';

export function commandsRoutes({
  devices,
  commands,
}: {
  devices: Pick<DeviceService, 'rowOf'>;
  commands: Pick<Commands, 'sendCommand'>;
}): BoundRoute[] {
  return implement(commandsContract, {
    configure: async ({ caller, input }) => {
      const row = await devices.rowOf(caller.app!.id, input.id);
      const data = await commands.sendCommand({
        appId: row.appId,
        deviceId: row.id,
        sensor: input.sensor,
        configtype: input.configtype,
        param: input.param,
        value: input.value,
      });
      return { data };
    },
  });
}
