// The add-device wizard (spec 03 sections 2.2, 2.3, 4): Kategori → Informasi → (tag categories → tag values) →
// (Konfigurasi) → (Aktivasi) → add. What follows each step comes from the chosen family's activation kind
// (activationKinds.ts): none/mqtt/tasmota are added straight after the info or tag step, `token` (the raspberry-pi
// type) goes through the sensors step to the token screen, every other kind to its activation screen. A step that is
// asked for without the draft it needs falls back to the step before (GOTO). API calls are the named actors below;
// tests replace them with .provide(). This file is the statechart alone (over 500 lines: its states share the typed
// guards and actions of one `setup`, so it is not cut further); the draft and its rules are deviceWizard.draft.ts.
import { assign, fromPromise, setup } from 'xstate';
import {
  T,
  type Device,
  type DeviceFamilyKey,
  type EmmaPluginApplication,
  type LoraServer,
  type TagCategory,
} from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import { parseSensorsText } from './sensorsText.js';
import { tagValueErrors } from './tagValues.js';
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
import { ACTIVATION_SCREENS, EMPTY_ACTIVATION, type ActivationScreen } from './activationKinds.js';
import {
  activationScreenOf,
  addRequestOf,
  chosenTags,
  emptyDraft,
  familyOf,
  flowOf,
  infoValid,
  reachableStep,
  sensorsValid,
  stepAllowed,
  tagsValid,
  validateActivation,
  validateInfo,
  WIZARD_STEPS,
  type DeviceWizardContext,
  type DeviceWizardEvent,
  type DeviceWizardInput,
  type WizardStep,
} from './deviceWizard.draft.js';

// the draft, its rules and the activation kinds are the wizard's public face too (screens and tests import them here)
export * from './deviceWizard.draft.js';
export * from './activationKinds.js';

/** The token check's interval while the device has not connected. */
export const TOKEN_CHECK_INTERVAL_MS = 2000;

/** GOTO (and the resume after loading) go to the step the draft allows, trying each in order. */
const stepTargets = WIZARD_STEPS.map((step) => ({
  guard: { type: 'resolvesTo' as const, params: { step } },
  target: `#deviceWizard.${step}`,
}));
/** What every step accepts besides its own events (never a save in progress). */
const stepEvents = { GOTO: stepTargets, RESET: { target: '#deviceWizard.category', actions: 'reset' as const } };

/** An activation form's submit: its problems, or the save (a failed one returns to the form). */
const submitActivation = [
  { guard: 'activationInvalid' as const, actions: 'assignActivationErrors' as const },
  { target: '#deviceWizard.saving', actions: { type: 'returnTo' as const, params: { step: 'activation' as const } } },
];

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
    activationScreenIs: ({ context }, params: { screen: ActivationScreen }) =>
      activationScreenOf(context.draft) === params.screen,
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
          // the family's activation kind names its screen (activationKinds.ts)
          always: ACTIVATION_SCREENS.map(({ state }) => ({
            guard: { type: 'activationScreenIs' as const, params: { screen: state } },
            target: state,
          })),
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
                SUBMIT_ACTIVATION: submitActivation,
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
                SUBMIT_ACTIVATION: submitActivation,
              },
            },
          },
        },
        cloud: {
          on: {
            SUBMIT_ACTIVATION: submitActivation,
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
        ...ACTIVATION_SCREENS.map(({ state, resume }) => ({
          guard: ({ context }: { context: DeviceWizardContext }) =>
            context.returnTo === 'activation' && activationScreenOf(context.draft) === state,
          target: resume,
        })),
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
