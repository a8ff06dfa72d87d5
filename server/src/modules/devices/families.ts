// What each activation kind of the family table does when a device is added, and what its family get answers.
// One behaviour per kind, not per family: ZLAN, USR-IOT, Bivocom, Friendcom and the Sentra gateways share `uid`.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { T, type ActivationKind, type DeviceFamily, type GatewayConnection, type TasmotaDiscovery } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { hashBrokerSecret, newBrokerSecret } from '../../platform/crypto.js';
import { conflict, fail, invalid } from '../../platform/http/errors.js';
import { DeviceCode } from '@sentra/contracts';
import type { LoraService } from '../lora/lora.service.js';
import type { Activation } from './activation.js';
import type { EmmaPluginCloud, ImouCloud } from './cloud.js';
import { devices } from './devices.table.js';

export type { DeviceRow } from './devices.table.js';
type DeviceRow = typeof devices.$inferSelect;
type Input = Record<string, any>;

export interface Prepared {
  /** identity columns (uid, broker credentials, token, LoRa) */
  columns: Partial<Pick<DeviceRow, 'uid' | 'brokerUsername' | 'brokerPassword' | 'topic' | 'tokenId' | 'devEui' | 'networkServerId'>>;
  /** the family's other fields, kept as JSON */
  details: Record<string, unknown>;
  /** what the add's answer shows once and the registry does not keep (a broker secret; its hash is in `columns`) */
  shown?: Record<string, unknown>;
}

export interface FamilyBehaviour {
  /** checks the draft's family fields against the world (activation evidence, clouds) and answers what to store */
  prepare(appId: number, family: DeviceFamily, input: Input): Prepared;
  /** the per-family get's own fields */
  info(row: DeviceRow, family: DeviceFamily, details: Record<string, any>): Record<string, unknown>;
}

export interface FamilyDeps {
  db: Db;
  activation: Activation;
  lora: LoraService;
  emma: EmmaPluginCloud;
  imou: ImouCloud;
  /** the broker address devices are told to use */
  brokerUrl(): string;
  /** its host and TCP port, and MQTT over WebSocket's URL, for the gateway connection settings */
  broker(): { host: string; port: number; wsUrl: string };
}

const handle = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** The d/<id>/... topics of generic MQTT and Sentra devices (DESIGN.md section 4). */
export const deviceTopics = (id: number) => ({ data_topic: `d/${id}/data`, state_topic: `d/${id}/state`, command_topic: `d/${id}/cmd`, command_reply_topic: `d/${id}/cmd/res` });

/** A new broker secret: the plain value shown once, the hash stored in `broker_password`. */
export function brokerSecret() {
  const secret = newBrokerSecret();
  return { secret, stored: hashBrokerSecret(secret) };
}

/**
 * Whether this UID must be answered as if it had never been heard: registered in another application. The check and
 * the add never tell one tenant that a UID exists elsewhere (issue 23), so they answer "not heard yet", as for a UID
 * nobody has seen; a gateway bound to another application cannot sign in without that application's secret anyway.
 */
export const uidHiddenFrom = (appId: number, row: Pick<DeviceRow, 'appId'> | undefined) => row !== undefined && row.appId !== appId;

export function gatewayConnection(uid: string, broker: ReturnType<FamilyDeps['broker']>, mqttUrl: string): GatewayConnection {
  return { mqtt_host: broker.host, mqtt_port: broker.port, mqtt_url: mqttUrl, ws_url: broker.wsUrl, client_id: uid, username: uid, up_topic: `gw/${uid}/up`, down_topic: `gw/${uid}/down` };
}

export function familyBehaviours(deps: FamilyDeps): Record<ActivationKind, FamilyBehaviour> {
  const { db, activation } = deps;
  return {
    none: { prepare: () => ({ columns: {}, details: {} }), info: () => ({}) },
    token: {
      prepare(appId, _f, input) {
        const token = activation.connectedToken(appId, input.credentials_token);
        if (!token) throw fail(DeviceCode.NOT_ACTIVATED, T.devices.serverNotConnected);
        if (db.select({ id: devices.id }).from(devices).where(eq(devices.tokenId, token.id)).get()) throw conflict(T.devices.serverNotActivated);
        return { columns: { tokenId: token.id }, details: {} };
      },
      info: (row) => ({ token_connected_ts: row.tokenId ? (activation.tokenById(row.tokenId)?.connectedAt ?? null) : null }),
    },
    uid: {
      prepare(appId, _f, input) {
        const uid: string = input.dev_uid;
        const owner = db.select({ appId: devices.appId }).from(devices).where(eq(devices.uid, uid)).get();
        if (owner && !uidHiddenFrom(appId, owner)) throw conflict(T.devices.serverUidTaken);
        if (owner || activation.lastHeard(uid) === undefined) throw fail(DeviceCode.NOT_ACTIVATED, T.devices.serverUidNotHeard);
        // bound to this application from now on: the gateway signs in with this secret, never with its UID alone
        const { secret, stored } = brokerSecret();
        return { columns: { uid, brokerPassword: stored }, details: {}, shown: { gateway_secret: secret } };
      },
      info: (row, family) => ({
        [family.uidField!]: row.uid ?? '',
        ...('sentra_device_type' in family.info ? { sentra_device_type: row.deviceType } : {}),
        gateway_connection: gatewayConnection(row.uid ?? '', deps.broker(), deps.brokerUrl()),
      }),
    },
    lora: {
      prepare(appId, _f, input) {
        const server = deps.lora.rowOf(appId, input.network_server_id);
        if (db.select({ id: devices.id }).from(devices).where(and(eq(devices.appId, appId), eq(devices.devEui, input.dev_eui))).get()) throw conflict(T.devices.serverDevEuiTaken);
        return { columns: { devEui: input.dev_eui, networkServerId: server.id }, details: { otaa_key: input.otaa_key } };
      },
      info(row) {
        const server = row.networkServerId ? deps.lora.rowOf(row.appId, row.networkServerId) : undefined;
        return { dev_eui: row.devEui ?? '', network_server_id: row.networkServerId ?? 0, network_server_name: server?.name ?? null, network_server_mac: server?.mac ?? null };
      },
    },
    mqtt: {
      prepare: (_a, _f, input) => {
        const { secret, stored } = brokerSecret();
        return {
          columns: { brokerUsername: handle('mqtt'), brokerPassword: stored },
          details: { mqtt_mode: input.store_mqtt_mode ?? 'json', mqtt_details: input.store_mqtt_details ?? {} },
          shown: { store_mqtt_password: secret },
        };
      },
      info: (row, _f, d) => ({
        store_mqtt_url: deps.brokerUrl(),
        store_mqtt_username: row.brokerUsername ?? '',
        // only its hash is kept: shown once by the add and by the regenerate call
        store_mqtt_password: '',
        store_mqtt_mode: d.mqtt_mode ?? 'json',
        store_mqtt_details: { ...deviceTopics(row.id), ...(d.mqtt_details ?? {}) },
        store_mqtt_topic: `d/${row.id}`,
      }),
    },
    tasmota: {
      // the device's existing Topic when the draft names one (unique on the broker: topics are not per tenant), else
      // a generated one the device is then set to
      prepare: (_a, _f, input) => {
        const topic: string = input.topic ?? handle('sentra');
        if (db.select({ id: devices.id }).from(devices).where(eq(devices.topic, topic)).get()) throw conflict(T.devices.serverTopicTaken);
        const { secret, stored } = brokerSecret();
        return { columns: { brokerUsername: handle('tasmota'), brokerPassword: stored, topic }, details: {}, shown: { password: secret } };
      },
      info: (row, _f, d) => ({
        device_mqtt_url: deps.brokerUrl(),
        username: row.brokerUsername ?? '',
        password: '',
        topic: row.topic ?? '',
        full_topic: '%prefix%/%topic%/',
        tasmota_discovery: (d.tasmota_discovery as TasmotaDiscovery | undefined) ?? null,
      }),
    },
    plugin: {
      prepare(appId, _f, input) {
        const plugin = deps.emma.applications(appId).find((p) => p.emma_plugin_key === input.emma_plugin_key && p.emma_application_plugin_id === input.emma_application_plugin_id);
        if (!plugin) throw invalid(T.devices.serverUnknownPlugin, [{ path: 'emma_plugin_key', message: T.devices.serverUnknownPlugin }]);
        return { columns: {}, details: { ...plugin, emma_device_plugin_details: input.emma_device_plugin_details } };
      },
      info: (_r, _f, d) => ({
        emma_plugin_definition: { name: d.emma_plugin_name ?? '' },
        emma_plugin_application_id: d.emma_application_plugin_id ?? '',
        emma_plugin_details: d.emma_device_plugin_details ?? '{}',
      }),
    },
    cloud: {
      prepare(_a, _f, input) {
        if (!deps.imou.findDevice(input.imou_application_id, input.imou_device_id)) throw invalid(T.common.notFound, [{ path: 'imou_device_id', message: T.common.notFound }]);
        return { columns: {}, details: { imou_device_id: input.imou_device_id, imou_application_id: input.imou_application_id } };
      },
      info: (_r, _f, d) => ({ imou_device_id: d.imou_device_id ?? '', imou_application_id: d.imou_application_id ?? '' }),
    },
  };
}
