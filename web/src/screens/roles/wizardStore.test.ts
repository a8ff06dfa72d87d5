import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { NavEntry } from '@sentra/contracts';
import { roleWizardMachine } from './roleWizard.machine.js';
import { obtainWizard, releaseWizard } from './wizardStore.js';

const machine = roleWizardMachine.provide({
  actors: { loadNavigationTree: fromPromise(async (): Promise<NavEntry[]> => []) },
});

describe('the role wizard in progress', () => {
  it('continues for the history entry that started it and for entries carrying its id, else starts anew', () => {
    const first = obtainWizard('add', undefined, 'entry-1', { mode: 'add' }, machine);
    expect(obtainWizard('add', undefined, 'entry-1', { mode: 'add' }, machine)).toBe(first);
    expect(obtainWizard('add', first.id, 'entry-2', { mode: 'add' }, machine)).toBe(first);
    // a visit from elsewhere (another history entry without the id) starts a new wizard and stops the old one
    const second = obtainWizard('add', undefined, 'entry-3', { mode: 'add' }, machine);
    expect(second).not.toBe(first);
    expect(first.actor.getSnapshot().status).toBe('stopped');
    // another role's edit is another wizard
    const edit = obtainWizard('edit:4', second.id, 'entry-4', { mode: 'edit', roleId: 4, start: 'access' }, machine);
    expect(edit).not.toBe(second);
    releaseWizard(edit);
    expect(edit.actor.getSnapshot().status).toBe('stopped');
  });
});
