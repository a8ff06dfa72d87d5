// Holds the one role wizard in progress while its steps move between routes (_role_add_info_ → _role_add_access_ →
// _role_add_sort_), continued through the wizard's id in the history state (ui/wizardStore.ts).
import type { ActorRefFrom } from 'xstate';
import { historyWizardStore, type HeldWizard as Held } from '../../ui/wizardStore.js';
import { roleWizardMachine } from './roleWizard.machine.js';

export type RoleWizardActor = ActorRefFrom<typeof roleWizardMachine>;
export type HeldWizard = Held<RoleWizardActor>;

export const { obtainWizard, releaseWizard } = historyWizardStore('role-wizard', roleWizardMachine);
