// How a serial gateway is added: its UID must have been heard on gw/<uid>/up and belong to no application; the add
// makes the secret it signs in with from then on, and its info carries its connection settings.
import { DeviceCode, T, type GatewayConnection } from '@sentra/contracts';
import { conflict, fail } from '../../../../platform/http/errors.js';
import type { DeviceRow } from '../../devices.table.js';
import { brokerSecret, type FamilyBehaviour, type FamilyDeps } from '../registration.js';

/**
 * Whether this UID must be answered as if it had never been heard: registered in another application. The check and
 * the add never tell one tenant that a UID exists elsewhere (issue 23), so they answer "not heard yet", as for a UID
 * nobody has seen; a gateway bound to another application cannot sign in without that application's secret anyway.
 */
export const uidHiddenFrom = (appId: number, row: Pick<DeviceRow, 'appId'> | undefined) =>
  row !== undefined && row.appId !== appId;

export function gatewayConnection(
  uid: string,
  broker: ReturnType<FamilyDeps['broker']>,
  mqttUrl: string,
): GatewayConnection {
  return {
    mqtt_host: broker.host,
    mqtt_port: broker.port,
    mqtt_url: mqttUrl,
    ws_url: broker.wsUrl,
    client_id: uid,
    username: uid,
    up_topic: `gw/${uid}/up`,
    down_topic: `gw/${uid}/down`,
  };
}

/** `uid`: ZLAN, USR-IOT, Bivocom, Friendcom and the Sentra gateways */
export function uidRegistration(deps: FamilyDeps): FamilyBehaviour {
  const { store, activation } = deps;
  return {
    async prepareAdd(appId, _f, input) {
      const uid: string = input.dev_uid;
      const owner = await store.byUid(uid);
      if (owner && !uidHiddenFrom(appId, owner)) throw conflict(T.devices.serverUidTaken);
      if (owner || (await activation.lastHeard(uid)) === undefined)
        throw fail(DeviceCode.NOT_ACTIVATED, T.devices.serverUidNotHeard);
      // bound to this application from now on: the gateway signs in with this secret, never with its UID alone
      const { secret, stored } = brokerSecret();
      return { columns: { uid, brokerPassword: stored }, details: {}, shown: { gateway_secret: secret } };
    },
    info: (row, family, _d, origin) => ({
      [family.uidField!]: row.uid ?? '',
      ...('sentra_device_type' in family.info ? { sentra_device_type: row.deviceType } : {}),
      gateway_connection: gatewayConnection(row.uid ?? '', deps.broker(origin), deps.brokerUrl(origin)),
    }),
  };
}
