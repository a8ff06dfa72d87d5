// How a LoRa device is added: its DevEUI and OTAA key on one of the application's LoRa network servers.
import { T } from '@sentra/contracts';
import { conflict } from '../../../../platform/http/errors.js';
import type { FamilyBehaviour, FamilyDeps } from '../registration.js';

/** `lora`: unique DevEUI per application, on a network server of that application */
export function loraRegistration(deps: FamilyDeps): FamilyBehaviour {
  const { store } = deps;
  return {
    async prepareAdd(appId, _f, input) {
      const server = await deps.lora.rowOf(appId, input.network_server_id);
      if (await store.byDevEui(appId, input.dev_eui)) throw conflict(T.devices.serverDevEuiTaken);
      return { columns: { devEui: input.dev_eui, networkServerId: server.id }, details: { otaa_key: input.otaa_key } };
    },
    async info(row) {
      const server = row.networkServerId ? await deps.lora.rowOf(row.appId, row.networkServerId) : undefined;
      return {
        dev_eui: row.devEui ?? '',
        network_server_id: row.networkServerId ?? 0,
        network_server_name: server?.name ?? null,
        network_server_mac: server?.mac ?? null,
      };
    },
  };
}
