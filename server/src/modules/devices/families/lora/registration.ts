// How a LoRa device is added: its DevEUI and OTAA key on one of the application's LoRa network servers.
import { and, eq } from 'drizzle-orm';
import { T } from '@sentra/contracts';
import { conflict } from '../../../../platform/http/errors.js';
import { devices } from '../../devices.table.js';
import type { FamilyBehaviour, FamilyDeps } from '../registration.js';

/** `lora`: unique DevEUI per application, on a network server of that application */
export function loraRegistration(deps: FamilyDeps): FamilyBehaviour {
  const { db } = deps;
  return {
    prepare(appId, _f, input) {
      const server = deps.lora.rowOf(appId, input.network_server_id);
      if (
        db
          .select({ id: devices.id })
          .from(devices)
          .where(and(eq(devices.appId, appId), eq(devices.devEui, input.dev_eui)))
          .get()
      )
        throw conflict(T.devices.serverDevEuiTaken);
      return { columns: { devEui: input.dev_eui, networkServerId: server.id }, details: { otaa_key: input.otaa_key } };
    },
    info(row) {
      const server = row.networkServerId ? deps.lora.rowOf(row.appId, row.networkServerId) : undefined;
      return {
        dev_eui: row.devEui ?? '',
        network_server_id: row.networkServerId ?? 0,
        network_server_name: server?.name ?? null,
        network_server_mac: server?.mac ?? null,
      };
    },
  };
}
