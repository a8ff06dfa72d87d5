// How generic MQTT, Sentra end devices and Dummy devices are added: Dummy proves nothing; a Sentra end device's token
// must have connected; an MQTT device gets broker credentials whose password is shown once.
import { DeviceCode, T } from '@sentra/contracts';
import { conflict, fail } from '../../../../platform/http/errors.js';
import { brokerHandle, brokerSecret, type FamilyBehaviour, type FamilyDeps } from '../registration.js';

/** The d/<id>/... topics of generic MQTT and Sentra devices (docs/conventions.md "Device topics"). */
export const deviceTopics = (id: number) => ({
  data_topic: `d/${id}/data`,
  state_topic: `d/${id}/state`,
  command_topic: `d/${id}/cmd`,
  command_reply_topic: `d/${id}/cmd/res`,
});

/** `none`: Dummy devices */
export const noneRegistration = (): FamilyBehaviour => ({
  prepareAdd: () => ({ columns: {}, details: {} }),
  info: () => ({}),
});

/** `token`: a Sentra end device, once it connected with its credentials token */
export function tokenRegistration(deps: FamilyDeps): FamilyBehaviour {
  const { store, activation } = deps;
  return {
    async prepareAdd(appId, _f, input) {
      const token = await activation.connectedToken(appId, input.credentials_token);
      if (!token) throw fail(DeviceCode.NOT_ACTIVATED, T.devices.serverNotConnected);
      if (await store.byToken(token.id)) throw conflict(T.devices.serverNotActivated);
      return { columns: { tokenId: token.id }, details: {} };
    },
    info: async (row) => ({
      token_connected_ts: row.tokenId ? ((await activation.tokenById(row.tokenId))?.connectedAt ?? null) : null,
    }),
  };
}

/** `mqtt`: a generic MQTT device; its broker password is shown once (only its hash is kept) */
export const mqttRegistration = (deps: FamilyDeps): FamilyBehaviour => ({
  prepareAdd: (_a, _f, input) => {
    const { secret, stored } = brokerSecret();
    return {
      columns: { brokerUsername: brokerHandle('mqtt'), brokerPassword: stored },
      details: { mqtt_mode: input.store_mqtt_mode ?? 'json', mqtt_details: input.store_mqtt_details ?? {} },
      shown: { store_mqtt_password: secret },
    };
  },
  info: (row, _f, d, origin) => ({
    store_mqtt_url: deps.brokerUrl(origin),
    store_mqtt_username: row.brokerUsername ?? '',
    // only its hash is kept: shown once by the add and by the regenerate call
    store_mqtt_password: '',
    store_mqtt_mode: d.mqtt_mode ?? 'json',
    store_mqtt_details: { ...deviceTopics(row.id), ...(d.mqtt_details ?? {}) },
    store_mqtt_topic: `d/${row.id}`,
  }),
});
