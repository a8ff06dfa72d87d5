// The activation kinds of the family table (contracts' deviceFamilies `activation`) as data, like the server's table
// of wire families: one row per kind says what follows the wizard's info and tag steps, which activation screen it
// has and where a failed save returns on it, its fields of the add body and their checks, the broker secret its add
// answer shows once, and whether its devices have info screens of their own. The wizard, its screens, the secret
// panel and the device routes read this table instead of each keeping a branch per kind.
import { z } from 'zod';
import { T, gatewayUid, type ActivationKind, type DeviceFamily, type GatewayConnection } from '@sentra/contracts';
import { fieldErrorsOf, type FieldErrors } from '../../ui/forms.js';
import type { ShownSecret } from './BrokerSecretPanel.js';

/** What follows the info and tag steps. */
export type Flow = 'direct' | 'sensors' | 'activation';

/** The activation screens' fields (one form per activation kind; only the family's own fields are sent). */
export interface ActivationForm {
  dev_uid: string;
  dev_eui: string;
  otaa_key: string;
  network_server_id: string;
  emma_plugin_key: string;
  emma_application_plugin_id: string;
  emma_device_plugin_details: string;
  imou_device_id: string;
  imou_application_id: string;
}
export type ActivationField = keyof ActivationForm;

export const EMPTY_ACTIVATION: ActivationForm = {
  dev_uid: '',
  dev_eui: '',
  otaa_key: '',
  network_server_id: '',
  emma_plugin_key: '',
  emma_application_plugin_id: '',
  emma_device_plugin_details: '{}',
  imou_device_id: '',
  imou_application_id: '',
};

/** The activation screens: the wizard's `activation.<screen>` state and the screen component drawn in it. */
export type ActivationScreen = 'token' | 'uid' | 'lora' | 'plugin' | 'cloud';

/** An add answer's fields, as the secret readers see them. */
type Answer = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v : '');

export interface ActivationKindRow {
  flow: Flow;
  /** its activation screen, and the state of it a failed save returns to */
  screen?: { state: ActivationScreen; resume: string };
  /** the kind's own fields of the add body */
  body?(a: ActivationForm): Record<string, unknown>;
  /** the activation form's problems (the family's own add fields decide most) */
  validate?(f: DeviceFamily, a: ActivationForm): FieldErrors;
  /** the broker secret an add answer shows once: what the device is (its topics in the guide) and how to read it */
  secret?: {
    kind: 'gateway' | 'mqtt' | 'tasmota';
    read(d: Answer): Omit<ShownSecret, 'kind' | 'deviceId'> | undefined;
  };
  /** the info form asks for the Topic the device already has (Tasmota, issue 27) */
  infoTopic?: boolean;
  /** its devices have info screens of their own (an address segment); none and token use the generic screens */
  ownScreens: boolean;
}

/** The family's add fields over the kind's body, with the spec's messages, then what the form adds (`more`). */
const checkFields =
  (body: (a: ActivationForm) => Record<string, unknown>, more?: (a: ActivationForm, errors: FieldErrors) => void) =>
  (f: DeviceFamily, a: ActivationForm): FieldErrors => {
    const r = z.object(f.fields).safeParse(body(a));
    const errors = r.success ? {} : fieldErrorsOf(r.error);
    more?.(a, errors);
    return errors;
  };

const lora = (a: ActivationForm) => ({
  dev_eui: a.dev_eui.trim(),
  otaa_key: a.otaa_key.trim(),
  network_server_id: a.network_server_id ? Number(a.network_server_id) : undefined,
});
const plugin = (a: ActivationForm) => ({
  emma_plugin_key: a.emma_plugin_key,
  emma_application_plugin_id: a.emma_application_plugin_id,
  emma_device_plugin_details: a.emma_device_plugin_details,
});
const cloud = (a: ActivationForm) => ({
  imou_device_id: a.imou_device_id.trim(),
  imou_application_id: a.imou_application_id.trim(),
});

export const ACTIVATION_KINDS: Readonly<Record<ActivationKind, ActivationKindRow>> = {
  none: { flow: 'direct', ownScreens: false },
  token: { flow: 'sensors', screen: { state: 'token', resume: 'activation.token.connected' }, ownScreens: false },
  uid: {
    flow: 'activation',
    screen: { state: 'uid', resume: 'activation.uid' },
    body: (a) => ({ dev_uid: a.dev_uid.trim() }),
    validate: (_, a) => {
      const r = z.object({ dev_uid: gatewayUid }).safeParse({ dev_uid: a.dev_uid });
      return r.success ? {} : fieldErrorsOf(r.error);
    },
    secret: {
      kind: 'gateway',
      read: (d) => {
        if (!text(d.gateway_secret)) return undefined;
        const connection = d.gateway_connection as GatewayConnection;
        return { secret: text(d.gateway_secret), username: connection.username, connection };
      },
    },
    ownScreens: true,
  },
  lora: {
    flow: 'activation',
    screen: { state: 'lora', resume: 'activation.lora.form' },
    body: lora,
    validate: checkFields(lora, (a, errors) => {
      if (!a.network_server_id) errors.network_server_id = T.common.required;
    }),
    ownScreens: true,
  },
  mqtt: {
    flow: 'direct',
    secret: {
      kind: 'mqtt',
      read: (d) =>
        text(d.store_mqtt_password)
          ? {
              secret: text(d.store_mqtt_password),
              username: text(d.store_mqtt_username),
              brokerUrl: text(d.store_mqtt_url),
            }
          : undefined,
    },
    ownScreens: true,
  },
  tasmota: {
    flow: 'direct',
    secret: {
      kind: 'tasmota',
      read: (d) =>
        text(d.password)
          ? {
              secret: text(d.password),
              username: text(d.username),
              brokerUrl: text(d.device_mqtt_url),
              topic: text(d.topic),
            }
          : undefined,
    },
    infoTopic: true,
    ownScreens: true,
  },
  plugin: {
    flow: 'activation',
    screen: { state: 'plugin', resume: 'activation.plugin.form' },
    body: plugin,
    validate: checkFields(plugin, (a, errors) => {
      if (!a.emma_application_plugin_id) errors.emma_plugin = T.common.required;
      if (errors.emma_application_plugin_id) errors.emma_plugin = errors.emma_application_plugin_id;
    }),
    ownScreens: true,
  },
  cloud: {
    flow: 'activation',
    screen: { state: 'cloud', resume: 'activation.cloud' },
    body: cloud,
    validate: checkFields(cloud),
    ownScreens: true,
  },
};

/** The row of a family's activation kind. */
export const activationOf = (f: DeviceFamily): ActivationKindRow => ACTIVATION_KINDS[f.activation];

/** The kinds that have an activation screen, in the table's order. */
export const ACTIVATION_SCREENS = Object.values(ACTIVATION_KINDS).flatMap((k) => (k.screen ? [k.screen] : []));
