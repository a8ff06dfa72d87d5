// The add-device wizard (spec 03 sections 2.2, 2.3, 4): Kategori → Informasi → (tag categories → tag values) →
// (Konfigurasi) → (Aktivasi) → add. What follows each step comes from the chosen family's row of the family table:
// activation none/mqtt/tasmota are added straight after the info or tag step, `token` (the raspberry-pi type) goes
// through the sensors step to the token screen, every other family to its activation screen. A step that is asked for
// without the draft it needs falls back to the step before (GOTO). API calls are the named actors below; tests
// replace them with .provide().
import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import {
  T,
  familyByKey,
  gatewayUid,
  serialNumber,
  deviceName,
  type DeviceFamily,
  type DeviceFamilyKey,
  type EmmaPluginApplication,
  type LoraServer,
  type TagCategory,
} from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import { fieldErrorsOf, type FieldErrors } from '../../ui/forms.js';
import { parseSensorsText } from './sensorsText.js';
import { tagValueErrors, tagsBody, type TagValues } from './tagValues.js';
import {
  addDevice,
  checkToken,
  checkUid,
  DeviceCallError,
  generateToken,
  loadEmmaPlugins,
  loadLoraServers,
  loadTagCategories,
  type AddRequest,
} from './deviceCalls.js';
import type { Device } from '@sentra/contracts';

export type WizardStep = 'category' | 'info' | 'tagCategories' | 'tags' | 'sensors' | 'activation';
export const WIZARD_STEPS: readonly WizardStep[] = [
  'category',
  'info',
  'tagCategories',
  'tags',
  'sensors',
  'activation',
];

/** What follows the info and tag steps. */
export type Flow = 'direct' | 'sensors' | 'activation';

export interface InfoForm {
  serial_number: string;
  name: string;
  /** Tasmota: the Topic the device already has (issue 27); empty: the gateway generates one */
  topic?: string;
}

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

/** The wizard's draft: what survives a reload (session storage) and what RESET empties. */
export interface DeviceDraft {
  family?: DeviceFamilyKey;
  /** the chosen device type's add call (family variant key) */
  variant?: string;
  info: InfoForm;
  /** chosen tag category prefixes; null until the tag category step was submitted */
  tagCat: string[] | null;
  tags: TagValues;
  sensors: string;
  activation: ActivationForm;
}

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

export const emptyDraft = (): DeviceDraft => ({
  info: { serial_number: '', name: '' },
  tagCat: null,
  tags: {},
  sensors: '{}',
  activation: { ...EMPTY_ACTIVATION },
});

export interface DeviceWizardInput {
  draft?: DeviceDraft;
  /** the step the address asks for */
  start?: WizardStep;
}

export interface DeviceWizardContext {
  draft: DeviceDraft;
  start: WizardStep;
  tagCategories: TagCategory[];
  infoErrors: FieldErrors;
  tagErrors: Record<string, string>;
  sensorsError?: string;
  activationErrors: FieldErrors;
  token?: string;
  tokenConnected: boolean;
  /** the UID whose check succeeded (the button reads Simpan while the field still holds it) */
  uidChecked?: string;
  loraServers: LoraServer[];
  emmaPlugins: EmmaPluginApplication[];
  /** the step a save started from, where a failed save returns */
  returnTo: WizardStep;
  saved?: Device;
}

export type DeviceWizardEvent =
  | { type: 'CHOOSE'; family: DeviceFamilyKey; variant: string }
  | { type: 'EDIT_INFO'; field: keyof InfoForm; value: string }
  | { type: 'SUBMIT_INFO' }
  | { type: 'OPEN_TAGS' }
  | { type: 'TOGGLE_TAG_CATEGORY'; prefix: string }
  | { type: 'SUBMIT_TAG_CATEGORIES' }
  | { type: 'SET_TAG_VALUES'; prefix: string; values: string[] }
  | { type: 'SUBMIT_TAGS' }
  | { type: 'EDIT_SENSORS'; value: string }
  | { type: 'FORMAT_SENSORS' }
  | { type: 'SUBMIT_SENSORS' }
  | { type: 'EDIT_ACTIVATION'; field: ActivationField; value: string }
  | { type: 'SELECT_PLUGIN'; applicationId: string }
  | { type: 'REFRESH_TOKEN' }
  | { type: 'SUBMIT_ACTIVATION' }
  | { type: 'BACK' }
  | { type: 'GOTO'; step: WizardStep }
  | { type: 'RESET' }
  | { type: 'CANCEL' };

// ---- the family table decides the flow ----

export const familyOf = (d: Pick<DeviceDraft, 'family'>): DeviceFamily | undefined =>
  d.family ? familyByKey(d.family) : undefined;

export function flowOf(f: DeviceFamily | undefined): Flow {
  if (!f || f.activation === 'none' || f.activation === 'mqtt' || f.activation === 'tasmota') return 'direct';
  return f.activation === 'token' ? 'sensors' : 'activation';
}

const infoSchema = z.object({ serial_number: serialNumber, name: deviceName });

/** The info form's problems with the spec's messages ("Nomor serial tidak boleh kosong", "Nama tidak boleh kosong"), and a Tasmota's Topic with the add call's own rule. */
export function validateInfo(info: InfoForm, f?: DeviceFamily): FieldErrors {
  const parsed = infoSchema.safeParse(info);
  const errors = parsed.success ? {} : fieldErrorsOf(parsed.error);
  const topic = tasmotaTopicOf(f, info);
  if (topic !== undefined && f?.fields.topic) {
    const t = z.object({ topic: f.fields.topic }).safeParse({ topic });
    if (!t.success) Object.assign(errors, fieldErrorsOf(t.error));
  }
  return errors;
}

/** The Topic a Tasmota is registered with: the one typed, or undefined (the gateway generates one). */
export function tasmotaTopicOf(f: DeviceFamily | undefined, info: InfoForm): string | undefined {
  if (f?.activation !== 'tasmota') return undefined;
  const topic = info.topic?.trim() ?? '';
  return topic === '' ? undefined : topic;
}

/** The activation form's problems, checked with the family's own add fields (UID, Dev EUI, OTAA key, ids ...). */
export function validateActivation(f: DeviceFamily | undefined, a: ActivationForm): FieldErrors {
  if (!f) return {};
  switch (f.activation) {
    case 'uid': {
      const r = z.object({ dev_uid: gatewayUid }).safeParse({ dev_uid: a.dev_uid });
      return r.success ? {} : fieldErrorsOf(r.error);
    }
    case 'lora':
    case 'plugin':
    case 'cloud': {
      const values = activationBody(f, a);
      const r = z.object(f.fields).safeParse(values);
      const errors = r.success ? {} : fieldErrorsOf(r.error);
      if (f.activation === 'lora' && !a.network_server_id) errors.network_server_id = T.common.required;
      if (f.activation === 'plugin' && !a.emma_application_plugin_id) errors.emma_plugin = T.common.required;
      if (f.activation === 'plugin' && errors.emma_application_plugin_id)
        errors.emma_plugin = errors.emma_application_plugin_id;
      return errors;
    }
    default:
      return {};
  }
}

/** The family's own activation fields of the add body. */
export function activationBody(f: DeviceFamily, a: ActivationForm): Record<string, unknown> {
  switch (f.activation) {
    case 'uid':
      return { dev_uid: a.dev_uid.trim() };
    case 'lora':
      return {
        dev_eui: a.dev_eui.trim(),
        otaa_key: a.otaa_key.trim(),
        network_server_id: a.network_server_id ? Number(a.network_server_id) : undefined,
      };
    case 'plugin':
      return {
        emma_plugin_key: a.emma_plugin_key,
        emma_application_plugin_id: a.emma_application_plugin_id,
        emma_device_plugin_details: a.emma_device_plugin_details,
      };
    case 'cloud':
      return { imou_device_id: a.imou_device_id.trim(), imou_application_id: a.imou_application_id.trim() };
    default:
      return {};
  }
}

const chosenTags = (d: DeviceDraft) => d.tagCat ?? [];

/** The add call and body of the draft. */
export function addRequestOf(c: Pick<DeviceWizardContext, 'draft' | 'tagCategories' | 'token'>): AddRequest {
  const f = familyOf(c.draft)!;
  const d = c.draft;
  const body: Record<string, unknown> = { serial_number: d.info.serial_number.trim(), name: d.info.name.trim() };
  const topic = tasmotaTopicOf(f, d.info);
  if (topic !== undefined) body.topic = topic;
  if (chosenTags(d).length) body.tags = tagsBody(c.tagCategories, chosenTags(d), d.tags);
  if (flowOf(f) === 'sensors') Object.assign(body, { sensors: d.sensors, credentials_token: c.token ?? '' });
  Object.assign(body, activationBody(f, d.activation));
  return { family: f.key as DeviceFamilyKey, variant: d.variant!, body };
}

// ---- which steps the draft allows ----

const infoValid = (c: DeviceWizardContext) => Object.keys(validateInfo(c.draft.info, familyOf(c.draft))).length === 0;
const tagsValid = (c: DeviceWizardContext) =>
  Object.keys(tagValueErrors(c.tagCategories, chosenTags(c.draft), c.draft.tags)).length === 0;
const sensorsValid = (c: DeviceWizardContext) => parseSensorsText(c.draft.sensors).ok;

/** Whether the draft holds what a step needs. */
export function stepAllowed(c: DeviceWizardContext, step: WizardStep): boolean {
  const f = familyOf(c.draft);
  const variantKnown = Boolean(f && f.variants.some((v) => v.key === c.draft.variant));
  const flow = flowOf(f);
  switch (step) {
    case 'category':
      return true;
    case 'info':
      return variantKnown;
    case 'tagCategories':
      return variantKnown && infoValid(c) && c.tagCategories.length > 0;
    case 'tags':
      return stepAllowed(c, 'tagCategories') && chosenTags(c.draft).length > 0;
    case 'sensors':
      return variantKnown && infoValid(c) && flow === 'sensors' && tagsValid(c);
    case 'activation':
      return (
        variantKnown && infoValid(c) && flow !== 'direct' && tagsValid(c) && (flow !== 'sensors' || sensorsValid(c))
      );
  }
}

/** The step before `step` on the draft's path. */
export function previousStep(c: DeviceWizardContext, step: WizardStep): WizardStep {
  const afterInfo: WizardStep = chosenTags(c.draft).length ? 'tags' : 'info';
  switch (step) {
    case 'category':
    case 'info':
      return 'category';
    case 'tagCategories':
      return 'info';
    case 'tags':
      return 'tagCategories';
    case 'sensors':
      return afterInfo;
    case 'activation':
      return flowOf(familyOf(c.draft)) === 'sensors' ? 'sensors' : afterInfo;
  }
}

/** The step shown when `wanted` is asked for: it, or the nearest step before it the draft allows. */
export function reachableStep(c: DeviceWizardContext, wanted: WizardStep): WizardStep {
  let step = wanted;
  for (let i = 0; i < WIZARD_STEPS.length && !stepAllowed(c, step); i++) step = previousStep(c, step);
  return stepAllowed(c, step) ? step : 'category';
}

/** The steps the stepper shows for the draft (the two tag steps are one, "Penanda"). */
export function stepsOf(d: DeviceDraft): WizardStep[] {
  const flow = flowOf(familyOf(d));
  return [
    'category',
    'info',
    ...(chosenTags(d).length ? (['tags'] as const) : []),
    ...(flow === 'sensors' ? (['sensors'] as const) : []),
    ...(flow !== 'direct' ? (['activation'] as const) : []),
  ];
}

/** The token check's interval while the device has not connected. */
export const TOKEN_CHECK_INTERVAL_MS = 2000;

/** GOTO (and the resume after loading) go to the step the draft allows, trying each in order. */
const stepTargets = WIZARD_STEPS.map((step) => ({
  guard: { type: 'resolvesTo' as const, params: { step } },
  target: `#deviceWizard.${step}`,
}));
/** What every step accepts besides its own events (never a save in progress). */
const stepEvents = { GOTO: stepTargets, RESET: { target: '#deviceWizard.category', actions: 'reset' as const } };

export const deviceWizardMachine = setup({
  types: {
    context: {} as DeviceWizardContext,
    events: {} as DeviceWizardEvent,
    input: {} as DeviceWizardInput,
  },
  actors: {
    loadTagCategories: fromPromise<TagCategory[]>(() => loadTagCategories()),
    generateToken: fromPromise<string>(() => generateToken()),
    checkToken: fromPromise<number, { token: string }>(({ input }) => checkToken(input.token)),
    checkUid: fromPromise<string, { family: DeviceFamilyKey; uid: string }>(({ input }) =>
      checkUid(input.family, input.uid),
    ),
    loadLoraServers: fromPromise<LoraServer[]>(() => loadLoraServers()),
    loadEmmaPlugins: fromPromise<EmmaPluginApplication[]>(() => loadEmmaPlugins()),
    addDevice: fromPromise<Device, AddRequest>(({ input }) => addDevice(input)),
  },
  delays: {
    tokenCheckInterval: TOKEN_CHECK_INTERVAL_MS,
  },
  guards: {
    resolvesTo: ({ context, event }, params: { step: WizardStep }) =>
      reachableStep(context, event.type === 'GOTO' ? event.step : context.start) === params.step,
    infoInvalid: ({ context }) => !infoValid(context),
    hasTagCategories: ({ context }) => context.tagCategories.length > 0,
    noTagCategoryChosen: ({ context }) => chosenTags(context.draft).length === 0,
    tagsInvalid: ({ context }) => !tagsValid(context),
    sensorsInvalid: ({ context }) => !sensorsValid(context),
    flowDirect: ({ context }) => flowOf(familyOf(context.draft)) === 'direct',
    flowSensors: ({ context }) => flowOf(familyOf(context.draft)) === 'sensors',
    activationIs: ({ context }, params: { kind: string }) => familyOf(context.draft)?.activation === params.kind,
    activationInvalid: ({ context }) =>
      Object.keys(validateActivation(familyOf(context.draft), context.draft.activation)).length > 0,
    uidAlreadyChecked: ({ context }) =>
      Boolean(context.uidChecked) && context.uidChecked === context.draft.activation.dev_uid.trim(),
    canGoBack: ({ context }) => stepAllowed(context, 'info'),
    failedOnInfo: ({ event }) => {
      const err = (event as { error?: unknown }).error;
      return err instanceof DeviceCallError && ['serial_number', 'name', 'topic'].some((k) => k in err.fieldErrors);
    },
  },
  actions: {
    assignInfoErrors: assign({
      infoErrors: ({ context }) => validateInfo(context.draft.info, familyOf(context.draft)),
    }),
    clearInfoErrors: assign({ infoErrors: {} }),
    assignTagErrors: assign({
      tagErrors: ({ context }) => tagValueErrors(context.tagCategories, chosenTags(context.draft), context.draft.tags),
    }),
    clearTagErrors: assign({ tagErrors: {} }),
    assignSensorsError: assign({ sensorsError: T.devices.sensorsJson }),
    warnSensors: () => notices.warning(T.devices.sensorsJson),
    formatSensors: assign({
      draft: ({ context }) => {
        const parsed = parseSensorsText(context.draft.sensors);
        return parsed.ok ? { ...context.draft, sensors: parsed.pretty } : context.draft;
      },
      sensorsError: ({ context }) => (parseSensorsText(context.draft.sensors).ok ? undefined : context.sensorsError),
    }),
    assignActivationErrors: assign({
      activationErrors: ({ context }) => validateActivation(familyOf(context.draft), context.draft.activation),
    }),
    clearActivationErrors: assign({ activationErrors: {} }),
    returnTo: assign({ returnTo: (_, params: { step: WizardStep }) => params.step }),
    notifyFailure: (_, params: { error: unknown; fallback: string }) =>
      notices.error(params.error instanceof Error && params.error.message ? params.error.message : params.fallback),
    notifySaved: () => notices.success(T.devices.addSuccess),
    reset: assign(() => ({
      draft: emptyDraft(),
      infoErrors: {},
      tagErrors: {},
      sensorsError: undefined,
      activationErrors: {},
      token: undefined,
      tokenConnected: false,
      uidChecked: undefined,
    })),
  },
}).createMachine({
  id: 'deviceWizard',
  context: ({ input }) => ({
    draft: input.draft ?? emptyDraft(),
    start: input.start ?? 'category',
    tagCategories: [],
    infoErrors: {},
    tagErrors: {},
    activationErrors: {},
    tokenConnected: false,
    loraServers: [],
    emmaPlugins: [],
    returnTo: 'info',
  }),
  initial: 'loading',
  on: {
    CANCEL: '.cancelled',
  },
  states: {
    // the tag categories decide whether "Penanda" is offered; a failed load offers none (and shows nothing else)
    loading: {
      on: { GOTO: { actions: assign({ start: ({ event }) => event.step }) } },
      invoke: {
        src: 'loadTagCategories',
        onDone: { target: 'resume', actions: assign({ tagCategories: ({ event }) => event.output }) },
        onError: 'resume',
      },
    },
    resume: { always: stepTargets },
    category: {
      on: {
        ...stepEvents,
        CHOOSE: {
          target: 'info',
          actions: assign(({ context, event }) => {
            const same = context.draft.family === event.family;
            return {
              draft: {
                ...context.draft,
                family: event.family,
                variant: event.variant,
                activation: same ? context.draft.activation : { ...EMPTY_ACTIVATION },
              },
              token: same ? context.token : undefined,
              tokenConnected: same ? context.tokenConnected : false,
              uidChecked: same ? context.uidChecked : undefined,
              activationErrors: {},
            };
          }),
        },
      },
    },
    info: {
      on: {
        ...stepEvents,
        EDIT_INFO: {
          actions: assign({
            draft: ({ context, event }) => ({
              ...context.draft,
              info: { ...context.draft.info, [event.field]: event.value },
            }),
          }),
        },
        SUBMIT_INFO: [
          { guard: 'infoInvalid', actions: 'assignInfoErrors' },
          // submitting without Penanda sends no tags
          {
            guard: 'flowDirect',
            target: 'saving',
            actions: [
              'clearInfoErrors',
              assign({ draft: ({ context }) => ({ ...context.draft, tagCat: null }) }),
              { type: 'returnTo', params: { step: 'info' } },
            ],
          },
          {
            guard: 'flowSensors',
            target: 'sensors',
            actions: ['clearInfoErrors', assign({ draft: ({ context }) => ({ ...context.draft, tagCat: null }) })],
          },
          {
            target: 'activation',
            actions: ['clearInfoErrors', assign({ draft: ({ context }) => ({ ...context.draft, tagCat: null }) })],
          },
        ],
        OPEN_TAGS: [
          { guard: 'infoInvalid', actions: 'assignInfoErrors' },
          { guard: 'hasTagCategories', target: 'tagCategories', actions: 'clearInfoErrors' },
        ],
        BACK: 'category',
      },
    },
    tagCategories: {
      on: {
        ...stepEvents,
        TOGGLE_TAG_CATEGORY: {
          actions: assign({
            draft: ({ context, event }) => {
              const now = chosenTags(context.draft);
              return {
                ...context.draft,
                tagCat: now.includes(event.prefix) ? now.filter((p) => p !== event.prefix) : [...now, event.prefix],
              };
            },
          }),
        },
        SUBMIT_TAG_CATEGORIES: [
          {
            guard: 'noTagCategoryChosen',
            actions: assign({ draft: ({ context }) => ({ ...context.draft, tagCat: [] }) }),
            target: 'afterTags',
          },
          {
            target: 'tags',
            actions: assign({ draft: ({ context }) => ({ ...context.draft, tagCat: chosenTags(context.draft) }) }),
          },
        ],
        BACK: 'info',
      },
    },
    tags: {
      on: {
        ...stepEvents,
        SET_TAG_VALUES: {
          actions: assign({
            draft: ({ context, event }) => ({
              ...context.draft,
              tags: { ...context.draft.tags, [event.prefix]: event.values },
            }),
          }),
        },
        SUBMIT_TAGS: [
          { guard: 'tagsInvalid', actions: 'assignTagErrors' },
          { target: 'afterTags', actions: 'clearTagErrors' },
        ],
        BACK: 'tagCategories',
      },
    },
    afterTags: {
      always: [
        { guard: 'flowDirect', target: 'saving', actions: { type: 'returnTo', params: { step: 'tagCategories' } } },
        { guard: 'flowSensors', target: 'sensors' },
        { target: 'activation' },
      ],
    },
    sensors: {
      on: {
        ...stepEvents,
        EDIT_SENSORS: {
          actions: assign({ draft: ({ context, event }) => ({ ...context.draft, sensors: event.value }) }),
        },
        FORMAT_SENSORS: { actions: 'formatSensors' },
        SUBMIT_SENSORS: [
          { guard: 'sensorsInvalid', actions: ['assignSensorsError', 'warnSensors'] },
          { target: 'activation', actions: ['formatSensors', assign({ sensorsError: undefined })] },
        ],
        BACK: [{ guard: 'noTagCategoryChosen', target: 'info' }, { target: 'tags' }],
      },
    },
    activation: {
      initial: 'choose',
      on: {
        ...stepEvents,
        EDIT_ACTIVATION: {
          actions: assign({
            draft: ({ context, event }) => ({
              ...context.draft,
              activation: { ...context.draft.activation, [event.field]: event.value },
            }),
            activationErrors: ({ context, event }) => {
              const { [event.field]: _dropped, ...rest } = context.activationErrors;
              return rest;
            },
          }),
        },
        BACK: [
          { guard: 'flowSensors', target: 'sensors' },
          { guard: 'noTagCategoryChosen', target: 'info' },
          { target: 'tags' },
        ],
      },
      states: {
        choose: {
          always: [
            { guard: { type: 'activationIs', params: { kind: 'token' } }, target: 'token' },
            { guard: { type: 'activationIs', params: { kind: 'uid' } }, target: 'uid' },
            { guard: { type: 'activationIs', params: { kind: 'lora' } }, target: 'lora' },
            { guard: { type: 'activationIs', params: { kind: 'plugin' } }, target: 'plugin' },
            { target: 'cloud' },
          ],
        },
        // a token is generated, then checked in the background until the device connected with it
        token: {
          initial: 'generating',
          on: { REFRESH_TOKEN: { target: '.generating', reenter: true } },
          states: {
            generating: {
              entry: assign({ token: undefined, tokenConnected: false }),
              invoke: {
                src: 'generateToken',
                onDone: { target: 'checking', actions: assign({ token: ({ event }) => event.output }) },
                onError: {
                  target: 'failed',
                  actions: {
                    type: 'notifyFailure',
                    params: ({ event }) => ({ error: event.error, fallback: T.devices.tokenFailed }),
                  },
                },
              },
            },
            checking: {
              invoke: {
                src: 'checkToken',
                input: ({ context }) => ({ token: context.token! }),
                onDone: { target: 'connected', actions: assign({ tokenConnected: true }) },
                onError: 'waiting',
              },
            },
            waiting: { after: { tokenCheckInterval: 'checking' } },
            connected: {
              on: {
                SUBMIT_ACTIVATION: {
                  target: '#deviceWizard.saving',
                  actions: { type: 'returnTo', params: { step: 'activation' } },
                },
              },
            },
            failed: {},
          },
        },
        // first submit checks the UID ("Aktivasi"); once it was heard the next submit adds ("Simpan")
        uid: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                SUBMIT_ACTIVATION: [
                  { guard: 'activationInvalid', actions: 'assignActivationErrors' },
                  {
                    guard: 'uidAlreadyChecked',
                    target: '#deviceWizard.saving',
                    actions: { type: 'returnTo', params: { step: 'activation' } },
                  },
                  { target: 'checking', actions: 'clearActivationErrors' },
                ],
              },
            },
            checking: {
              invoke: {
                src: 'checkUid',
                input: ({ context }) => ({
                  family: context.draft.family!,
                  uid: context.draft.activation.dev_uid.trim(),
                }),
                onDone: { target: 'idle', actions: assign({ uidChecked: ({ event }) => event.output }) },
                onError: {
                  target: 'idle',
                  actions: [
                    assign({ uidChecked: undefined }),
                    {
                      type: 'notifyFailure',
                      params: ({ event }) => ({ error: event.error, fallback: T.devices.uidCheckFailed }),
                    },
                  ],
                },
              },
            },
          },
        },
        lora: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                src: 'loadLoraServers',
                onDone: { target: 'form', actions: assign({ loraServers: ({ event }) => event.output }) },
                onError: 'form',
              },
            },
            form: {
              on: {
                SUBMIT_ACTIVATION: [
                  { guard: 'activationInvalid', actions: 'assignActivationErrors' },
                  { target: '#deviceWizard.saving', actions: { type: 'returnTo', params: { step: 'activation' } } },
                ],
              },
            },
          },
        },
        plugin: {
          initial: 'loading',
          on: {
            SELECT_PLUGIN: {
              actions: assign({
                draft: ({ context, event }) => {
                  const p = context.emmaPlugins.find((x) => x.emma_application_plugin_id === event.applicationId);
                  return {
                    ...context.draft,
                    activation: {
                      ...context.draft.activation,
                      emma_plugin_key: p?.emma_plugin_key ?? '',
                      emma_application_plugin_id: p?.emma_application_plugin_id ?? '',
                    },
                  };
                },
                activationErrors: ({ context }) => ({ ...context.activationErrors, emma_plugin: '' }),
              }),
            },
          },
          states: {
            loading: {
              invoke: {
                src: 'loadEmmaPlugins',
                onDone: { target: 'form', actions: assign({ emmaPlugins: ({ event }) => event.output }) },
                onError: 'form',
              },
            },
            form: {
              on: {
                SUBMIT_ACTIVATION: [
                  { guard: 'activationInvalid', actions: 'assignActivationErrors' },
                  { target: '#deviceWizard.saving', actions: { type: 'returnTo', params: { step: 'activation' } } },
                ],
              },
            },
          },
        },
        cloud: {
          on: {
            SUBMIT_ACTIVATION: [
              { guard: 'activationInvalid', actions: 'assignActivationErrors' },
              { target: '#deviceWizard.saving', actions: { type: 'returnTo', params: { step: 'activation' } } },
            ],
          },
        },
      },
    },
    saving: {
      invoke: {
        src: 'addDevice',
        input: ({ context }) => addRequestOf(context),
        onDone: { target: 'done', actions: [assign({ saved: ({ event }) => event.output }), 'notifySaved', 'reset'] },
        onError: [
          {
            guard: 'failedOnInfo',
            target: 'info',
            actions: [
              assign({ infoErrors: ({ event }) => (event.error as DeviceCallError).fieldErrors }),
              { type: 'notifyFailure', params: ({ event }) => ({ error: event.error, fallback: T.devices.addFailed }) },
            ],
          },
          {
            target: 'saveFailed',
            actions: [
              assign({
                activationErrors: ({ event }) =>
                  event.error instanceof DeviceCallError ? event.error.fieldErrors : {},
              }),
              { type: 'notifyFailure', params: ({ event }) => ({ error: event.error, fallback: T.devices.addFailed }) },
            ],
          },
        ],
      },
    },
    // back where the save started; the token screen keeps its (connected) token
    saveFailed: {
      always: [
        {
          guard: ({ context }) => context.returnTo === 'activation' && familyOf(context.draft)?.activation === 'token',
          target: 'activation.token.connected',
        },
        {
          guard: ({ context }) => context.returnTo === 'activation' && familyOf(context.draft)?.activation === 'uid',
          target: 'activation.uid',
        },
        {
          guard: ({ context }) => context.returnTo === 'activation' && familyOf(context.draft)?.activation === 'lora',
          target: 'activation.lora.form',
        },
        {
          guard: ({ context }) => context.returnTo === 'activation' && familyOf(context.draft)?.activation === 'plugin',
          target: 'activation.plugin.form',
        },
        { guard: ({ context }) => context.returnTo === 'activation', target: 'activation.cloud' },
        {
          guard: ({ context }) => context.returnTo === 'tagCategories' && chosenTags(context.draft).length > 0,
          target: 'tags',
        },
        { guard: ({ context }) => context.returnTo === 'tagCategories', target: 'tagCategories' },
        { target: 'info' },
      ],
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

/** The step a snapshot shows (during a save: the step it started from); null while loading or finished. */
export function stepOfSnapshot(value: unknown, context: DeviceWizardContext): WizardStep | null {
  const top = typeof value === 'string' ? value : Object.keys(value as object)[0];
  if ((WIZARD_STEPS as readonly string[]).includes(top!)) return top as WizardStep;
  if (top === 'saving' || top === 'saveFailed' || top === 'afterTags')
    return context.returnTo === 'tagCategories'
      ? chosenTags(context.draft).length
        ? 'tags'
        : 'tagCategories'
      : context.returnTo;
  return null;
}
