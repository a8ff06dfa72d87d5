// How a Tasmota is added: broker credentials (the password shown once) and its Topic, the device's own or a generated
// one it is then set to; its info shows what to type into the firmware and what its discovery said.
import { T, type TasmotaDiscovery } from '@sentra/contracts';
import { conflict } from '../../../../platform/http/errors.js';
import { brokerHandle, brokerSecret, type FamilyBehaviour, type FamilyDeps } from '../registration.js';

/** `tasmota`: a Topic is unique on the broker (topics are not per tenant) */
export function tasmotaRegistration(deps: FamilyDeps): FamilyBehaviour {
  const { store } = deps;
  return {
    // the device's existing Topic when the draft names one (unique on the broker: topics are not per tenant), else
    // a generated one the device is then set to
    prepareAdd: async (_a, _f, input) => {
      const topic: string = input.topic ?? brokerHandle('sentra');
      if (await store.byTopic(topic)) throw conflict(T.devices.serverTopicTaken);
      const { secret, stored } = brokerSecret();
      return {
        columns: { brokerUsername: brokerHandle('tasmota'), brokerPassword: stored, topic },
        details: {},
        shown: { password: secret },
      };
    },
    info: (row, _f, d, origin) => ({
      device_mqtt_url: deps.brokerUrl(origin),
      username: row.brokerUsername ?? '',
      password: '',
      topic: row.topic ?? '',
      full_topic: '%prefix%/%topic%/',
      tasmota_discovery: (d.tasmota_discovery as TasmotaDiscovery | undefined) ?? null,
    }),
  };
}
