// The add-device wizard's draft and its rules (the machine is deviceWizard.machine.ts): the steps, the draft that
// survives a reload, the context and events of the machine, and the pure functions of the draft: what follows each
// step (the family's activation kind, activationKinds.ts), the checks of each step, the add call's body, which steps
// the draft allows and which step a snapshot shows. The machine only wires them to its states and actors.
import { z } from 'zod';
import {
  familyByKey,
  serialNumber,
  deviceName,
  type Device,
  type DeviceFamily,
  type DeviceFamilyKey,
  type EmmaPluginApplication,
  type LoraServer,
  type TagCategory,
} from '@sentra/contracts';
import { fieldErrorsOf, type FieldErrors } from '../../ui/forms.js';
import { parseSensorsText } from './sensorsText.js';
import { tagValueErrors, tagsBody, type TagValues } from './tagValues.js';
import type { AddRequest } from './deviceCalls.js';
import {
  activationOf,
  EMPTY_ACTIVATION,
  type ActivationField,
  type ActivationForm,
  type ActivationScreen,
  type Flow,
} from './activationKinds.js';

export type WizardStep = 'category' | 'info' | 'tagCategories' | 'tags' | 'sensors' | 'activation';
export const WIZARD_STEPS: readonly WizardStep[] = [
  'category',
  'info',
  'tagCategories',
  'tags',
  'sensors',
  'activation',
];

export interface InfoForm {
  serial_number: string;
  name: string;
  /** Tasmota: the Topic the device already has (issue 27); empty: the gateway generates one */
  topic?: string;
}

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

export const flowOf = (f: DeviceFamily | undefined): Flow => (f ? activationOf(f).flow : 'direct');

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

/** The activation screen of the draft's family, if it has one. */
export function activationScreenOf(d: Pick<DeviceDraft, 'family'>): ActivationScreen | undefined {
  const f = familyOf(d);
  return f && activationOf(f).screen?.state;
}

/** Whether the info form asks for the Topic the device already has (Tasmota). */
export const tasmotaTopicAsked = (f: DeviceFamily | undefined) => Boolean(f && activationOf(f).infoTopic);

/** The Topic a Tasmota is registered with: the one typed, or undefined (the gateway generates one). */
export function tasmotaTopicOf(f: DeviceFamily | undefined, info: InfoForm): string | undefined {
  if (!tasmotaTopicAsked(f)) return undefined;
  const topic = info.topic?.trim() ?? '';
  return topic === '' ? undefined : topic;
}

/** The activation form's problems, checked with the family's own add fields (UID, Dev EUI, OTAA key, ids ...). */
export const validateActivation = (f: DeviceFamily | undefined, a: ActivationForm): FieldErrors =>
  (f && activationOf(f).validate?.(f, a)) ?? {};

/** The family's own activation fields of the add body. */
export const activationBody = (f: DeviceFamily, a: ActivationForm): Record<string, unknown> =>
  activationOf(f).body?.(a) ?? {};

export const chosenTags = (d: DeviceDraft) => d.tagCat ?? [];

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

export const infoValid = (c: DeviceWizardContext) =>
  Object.keys(validateInfo(c.draft.info, familyOf(c.draft))).length === 0;
export const tagsValid = (c: DeviceWizardContext) =>
  Object.keys(tagValueErrors(c.tagCategories, chosenTags(c.draft), c.draft.tags)).length === 0;
export const sensorsValid = (c: DeviceWizardContext) => parseSensorsText(c.draft.sensors).ok;

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
