// What every family's registration answers (its activation kind's behaviour: what a device add checks and stores, and
// what its family get shows), and the helpers they share. Each kind lives in the folder of the wire family it belongs
// to (families/<wire>/registration.ts; Emma and Imou in cloud/) and the family table composes them (./index.ts).
// One behaviour per kind, not per family: ZLAN, USR-IOT, Bivocom, Friendcom and the Sentra gateways share `uid`.
import { randomBytes } from 'node:crypto';
import type { DeviceFamily } from '@sentra/contracts';
import { hashBrokerSecret, newBrokerSecret } from '../../../platform/crypto.js';
import type { LoraService } from '../../lora/lora.service.js';
import type { Activation } from '../activation.js';
import type { DevicesStore } from '../devices.store.js';
import type { EmmaPluginCloud, ImouCloud } from '../cloud.js';
import type { DeviceRow } from '../devices.table.js';
import type { RequestOrigin } from '../broker-address.js';

type Input = Record<string, any>;

export interface Prepared {
  /** identity columns (uid, broker credentials, token, LoRa) */
  columns: Partial<
    Pick<DeviceRow, 'uid' | 'brokerUsername' | 'brokerPassword' | 'topic' | 'tokenId' | 'devEui' | 'networkServerId'>
  >;
  /** the family's other fields, kept as JSON */
  details: Record<string, unknown>;
  /** what the add's answer shows once and the registry does not keep (a broker secret; its hash is in `columns`) */
  shown?: Record<string, unknown>;
}

export interface FamilyBehaviour {
  /** checks the draft's family fields against the world (activation evidence, clouds) and answers what to store */
  prepareAdd(appId: number, family: DeviceFamily, input: Input): Prepared | Promise<Prepared>;
  /** the per-family get's own fields; `origin`: where the asking request was sent (the broker address follows it) */
  info(
    row: DeviceRow,
    family: DeviceFamily,
    details: Record<string, any>,
    origin?: RequestOrigin,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
}

export interface FamilyDeps {
  /** the registry's rows (the add checks what is taken) */
  store: DevicesStore;
  activation: Activation;
  lora: LoraService;
  emma: EmmaPluginCloud;
  imou: ImouCloud;
  /** the broker address devices are told to use (broker-address.ts), for a request sent to `origin` */
  brokerUrl(origin?: RequestOrigin): string;
  /** its host and TCP port, and MQTT over WebSocket's URL, for the gateway connection settings */
  broker(origin?: RequestOrigin): { host: string; port: number; wsUrl: string };
}

/** a generated broker username (or Tasmota Topic): the prefix and 12 random hex digits */
export const brokerHandle = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** A new broker secret: the plain value shown once, the hash stored in `broker_password`. */
export function brokerSecret() {
  const secret = newBrokerSecret();
  return { secret, stored: hashBrokerSecret(secret) };
}
