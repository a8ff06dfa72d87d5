// Holds the one role wizard in progress while its steps move between routes (_role_add_info_ → _role_add_access_ →
// _role_add_sort_): each step's route carries the wizard's id in the history state, so a step reached through the
// wizard (or the browser's back button) continues it, and a step reached from anywhere else starts a new one. A new
// wizard is tied to the history entry that opened it until its id is in the history state, so a re-render or a
// remount of that same entry continues it too.
import { createActor, type ActorRefFrom } from 'xstate';
import { roleWizardMachine, type RoleWizardInput } from './roleWizard.machine.js';

export type RoleWizardActor = ActorRefFrom<typeof roleWizardMachine>;

export interface HeldWizard {
  id: string;
  /** 'add' or 'edit:{id}' */
  key: string;
  actor: RoleWizardActor;
  /** the history entry (location.key) that started it */
  origin: string;
}

let held: HeldWizard | null = null;
let seq = 0;

/**
 * The wizard `carried` (the history state's id) names if it is still in progress; without one, the wizard this same
 * history entry started; else a new one.
 */
export function obtainWizard(
  key: string,
  carried: string | undefined,
  entry: string,
  input: RoleWizardInput,
  machine = roleWizardMachine,
): HeldWizard {
  const reusable =
    held &&
    held.key === key &&
    held.actor.getSnapshot().status === 'active' &&
    (carried ? held.id === carried : held.origin === entry);
  if (reusable) return held!;
  held?.actor.stop();
  held = {
    id: `role-wizard-${Date.now().toString(36)}-${++seq}`,
    key,
    actor: createActor(machine, { input }).start(),
    origin: entry,
  };
  return held;
}

export function releaseWizard(h: HeldWizard): void {
  if (held !== h) return;
  held.actor.stop();
  held = null;
}
