// Holds the add-device wizard while its steps move between routes, and keeps its draft in session storage so a
// reload of any step continues it (spec 03 section 2.2: without a draft a step falls back to the step before). One
// wizard per application: another application's starts anew (ui/wizardStore.ts holds it).
import { createActor, type ActorRefFrom } from 'xstate';
import { createWizardHolder } from '../../ui/wizardStore.js';
import { deviceWizardMachine, emptyDraft, type DeviceDraft, type WizardStep } from './deviceWizard.machine.js';

export type DeviceWizardActor = ActorRefFrom<typeof deviceWizardMachine>;

const storageKey = (domain: string) => `sentra.deviceWizard.${domain}`;

export function readDraft(domain: string): DeviceDraft | undefined {
  try {
    const raw = sessionStorage.getItem(storageKey(domain));
    if (!raw) return undefined;
    const d = JSON.parse(raw) as Partial<DeviceDraft>;
    const empty = emptyDraft();
    return {
      ...empty,
      ...d,
      info: { ...empty.info, ...d.info },
      activation: { ...empty.activation, ...d.activation },
      tags: d.tags ?? {},
    };
  } catch {
    return undefined;
  }
}

export function writeDraft(domain: string, draft: DeviceDraft | null): void {
  try {
    if (draft) sessionStorage.setItem(storageKey(domain), JSON.stringify(draft));
    else sessionStorage.removeItem(storageKey(domain));
  } catch {
    /* storage full or refused: the wizard still works for this page's life */
  }
}

const holder = createWizardHolder<DeviceWizardActor, string>();

/** The wizard in progress in this application, or a new one starting from the stored draft at `start`. */
export function obtainWizard(domain: string, start: WizardStep): DeviceWizardActor {
  return holder.obtain(
    (heldDomain) => heldDomain === domain,
    () => {
      const actor = createActor(deviceWizardMachine, { input: { draft: readDraft(domain), start } }).start();
      const sub = actor.subscribe((s) => {
        if (s.status === 'active') writeDraft(domain, s.context.draft);
        else writeDraft(domain, null);
      });
      return { actor, tag: domain, cleanup: () => sub.unsubscribe() };
    },
  ).actor;
}

export const releaseWizard = (): void => holder.release();
