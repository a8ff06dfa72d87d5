import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { T } from '@sentra/contracts';
import { ruleWizardMachine, parseTaskId, saveBody, taskIdOf, type RuleWizardInput } from './ruleWizard.machine.js';
import { emptyDraft, jsonToDraft, type RuleDraft } from './ruleDraft.js';
import { DeviceCallError } from '../devices/deviceCalls.js';
import type { AddRuleBody, EditRuleBody, LoadedRule } from './ruleCalls.js';
import { notices } from '../../ui/snackbar/notices.js';

/** The stored "Tangki solar rendah" rule: device 7's fuel level under 20 % for 60 s, an e-mail when it fires. */
const STORED: RuleDraft = jsonToDraft(
  { name: 'Tangki solar rendah', category: 11, description: 'Level BBM di bawah 20%' },
  {
    condition: {
      triggers: [
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'DEVICE_ID' }, op: '==', value: 7 },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'SENSOR' }, op: '==', value: 'tank' },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'CONFIG' }, op: '==', value: 'data' },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'PARAM' }, op: '==', value: 'level' },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '<', value: 20 },
      ],
      duration_s: 60,
    },
    action: {
      name: 'BBM rendah',
      new: [{ type: 'EMAIL', email: 'ops@example.com', subject: 'BBM', content: 'Isi tangki {{device.name}}' }],
      response: [],
    },
  },
);

interface Opts {
  loaded?: LoadedRule;
  loadFails?: boolean;
  addFails?: Error;
}

function start(input: RuleWizardInput, opts: Opts = {}) {
  const calls: { add: AddRuleBody[]; edit: EditRuleBody[]; load: number[] } = { add: [], edit: [], load: [] };
  const machine = ruleWizardMachine.provide({
    actors: {
      loadRule: fromPromise(async ({ input }: { input: { id: number } }) => {
        calls.load.push(input.id);
        if (opts.loadFails) throw new Error('Gagal memuat');
        return opts.loaded ?? { draft: STORED, key: 'bbm_rendah', wizardOk: true };
      }),
      addRule: fromPromise(async ({ input }: { input: AddRuleBody }) => {
        calls.add.push(input);
        if (opts.addFails) throw opts.addFails;
        return {} as unknown;
      }),
      editRule: fromPromise(async ({ input }: { input: EditRuleBody }) => {
        calls.edit.push(input);
        return {} as unknown;
      }),
    },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, calls };
}
type Actor = ReturnType<typeof start>['actor'];

const fillInfo = (actor: Actor) => {
  actor.send({ type: 'EDIT_INFO', field: 'name', value: 'Suhu panel tinggi' });
  actor.send({ type: 'EDIT_INFO', field: 'description', value: 'Suhu di atas 30' });
  actor.send({ type: 'SUBMIT_INFO' });
};
const fillTrigger = (actor: Actor) => {
  const values = ['12', 'env', 'data', 'temp', '30'];
  values.forEach((value, index) => actor.send({ type: 'EDIT_ROW', index, patch: { value } }));
  actor.send({ type: 'NEXT' });
};
const addEmail = (actor: Actor, group: 'new' | 'response' = 'new') => {
  actor.send({ type: 'ADD_TASK', group });
  actor.send({ type: 'EDIT_TASK', patch: { email: 'ops@example.com', subject: 'Panas', content: 'Suhu {{value}}' } });
  actor.send({ type: 'SUBMIT_TASK' });
};

const noticeTexts = () => notices.snapshot().map((n) => n.message);
afterEach(() => {
  for (const n of notices.snapshot()) notices.dismiss(n.id);
});

describe('rule wizard: create (editor/info → trigger → action)', () => {
  it('goes Info → Trigger → Action and sends the info fields with trigger, condition and action', async () => {
    const { actor, calls } = start({ mode: 'add' });
    expect(actor.getSnapshot().value).toBe('info');
    fillInfo(actor);
    expect(actor.getSnapshot().value).toBe('trigger');
    actor.send({ type: 'EDIT_EXTRAS', patch: { duration: '60', clearOp: '<=', clearValue: '25', cooldown: '600' } });
    fillTrigger(actor);
    expect(actor.getSnapshot().value).toBe('action');
    actor.send({ type: 'EDIT_ACTION_TITLE', value: 'Panel {{device.name}} panas' });
    addEmail(actor);
    actor.send({ type: 'ADD_TASK', group: 'response' });
    actor.send({ type: 'EDIT_TASK', patch: { type: 'SMS', phone: '+6281234567890', content: 'Ditangani' } });
    actor.send({ type: 'SUBMIT_TASK' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add).toEqual([
      {
        name: 'Suhu panel tinggi',
        category: 11,
        description: 'Suhu di atas 30',
        trigger: [
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'DEVICE_ID' }, op: '==', value: 12 },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'SENSOR' }, op: '==', value: 'env' },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'CONFIG' }, op: '==', value: 'data' },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'PARAM' }, op: '==', value: 'temp' },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '>', value: 30 },
        ],
        condition: {
          duration_s: 60,
          clear: [{ node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '<=', value: 25 }],
          cooldown_s: 600,
        },
        action: {
          name: 'Suhu panel tinggi',
          title: 'Panel {{device.name}} panas',
          new: [{ type: 'EMAIL', email: 'ops@example.com', subject: 'Panas', content: 'Suhu {{value}}' }],
          response: [{ type: 'SMS', phone: '+6281234567890', content: 'Ditangani' }],
        },
      },
    ]);
    expect(noticeTexts()).toContain(T.rules.addSuccess);
  });

  it('keeps the info step with its messages while the name is empty or longer than 30', () => {
    const { actor } = start({ mode: 'add' });
    actor.send({ type: 'SUBMIT_INFO' });
    expect(actor.getSnapshot().value).toBe('info');
    expect(actor.getSnapshot().context.infoErrors).toEqual({ name: T.common.required });
    // past the limit the message shows while typing (the field no longer cuts the text)
    actor.send({ type: 'EDIT_INFO', field: 'name', value: 'x'.repeat(31) });
    expect(actor.getSnapshot().context.infoErrors).toEqual({ name: T.ruleScreens.nameMax });
    actor.send({ type: 'SUBMIT_INFO' });
    expect(actor.getSnapshot().context.infoErrors).toEqual({ name: T.ruleScreens.nameMax });
    actor.send({ type: 'EDIT_INFO', field: 'description', value: 'd'.repeat(129) });
    actor.send({ type: 'SUBMIT_INFO' });
    expect(actor.getSnapshot().context.infoErrors.description).toBe(T.ruleScreens.descriptionMax);
  });

  it('refuses a trigger with empty values, a selector compared with >, or a text threshold', () => {
    const { actor } = start({ mode: 'add' });
    fillInfo(actor);
    actor.send({ type: 'NEXT' });
    expect(actor.getSnapshot().value).toBe('trigger');
    expect(actor.getSnapshot().context.triggerErrors['row.0']).toBe(T.ruleScreens.triggerValueRequired);
    fillTrigger(actor);
    expect(actor.getSnapshot().value).toBe('action');
    actor.send({ type: 'BACK' });
    actor.send({ type: 'EDIT_ROW', index: 1, patch: { op: '>' } });
    actor.send({ type: 'EDIT_ROW', index: 4, patch: { value: 'tinggi' } });
    actor.send({ type: 'EDIT_EXTRAS', patch: { duration: '-5' } });
    actor.send({ type: 'NEXT' });
    const errors = actor.getSnapshot().context.triggerErrors;
    expect(actor.getSnapshot().value).toBe('trigger');
    expect(errors).toMatchObject({
      'row.1': T.rules.selectorEquals,
      'row.4': T.rules.valueNumber,
      duration: T.ruleScreens.numberInvalid,
    });
  });

  it('asks for a device row and a VALUE row', () => {
    const { actor } = start({ mode: 'add' });
    fillInfo(actor);
    for (let i = 4; i >= 1; i--) actor.send({ type: 'REMOVE_ROW', index: i });
    actor.send({ type: 'EDIT_ROW', index: 0, patch: { value: '3' } });
    actor.send({ type: 'NEXT' });
    expect(actor.getSnapshot().context.triggerErrors.trigger).toBe(T.ruleScreens.triggerNeedsValue);
    actor.send({ type: 'EDIT_ROW', index: 0, patch: { field: 'VALUE' } });
    // another field clears the value it held
    expect(actor.getSnapshot().context.draft.trigger[0]).toEqual({ field: 'VALUE', op: '==', value: '' });
    actor.send({ type: 'EDIT_ROW', index: 0, patch: { value: '1' } });
    actor.send({ type: 'NEXT' });
    expect(actor.getSnapshot().context.triggerErrors.trigger).toBe(T.ruleScreens.triggerNeedsDevice);
  });

  it('edits one notification task at a time (action/task, action/task/{taskId}) and BACK drops unsaved changes', () => {
    const { actor } = start({ mode: 'add' });
    fillInfo(actor);
    fillTrigger(actor);
    actor.send({ type: 'ADD_TASK', group: 'new' });
    expect(actor.getSnapshot().value).toBe('task');
    expect(actor.getSnapshot().context.task).toMatchObject({ group: 'new', index: null });
    actor.send({ type: 'SUBMIT_TASK' });
    // a blank subject and content are the default message: only the address is needed
    expect(actor.getSnapshot().context.task?.errors).toEqual({ email: T.common.required });
    actor.send({ type: 'EDIT_TASK', patch: { type: 'WHATSAPP', phone: '0812', content: 'x' } });
    actor.send({ type: 'SUBMIT_TASK' });
    expect(actor.getSnapshot().context.task?.errors).toEqual({ phone: T.notifications.invalidPhone });
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('action');
    expect(actor.getSnapshot().context.draft.action.new).toEqual([]);
    addEmail(actor);
    actor.send({ type: 'OPEN_TASK', group: 'new', index: 0 });
    expect(actor.getSnapshot().context.task).toMatchObject({
      group: 'new',
      index: 0,
      form: { email: 'ops@example.com' },
    });
    actor.send({ type: 'EDIT_TASK', patch: { subject: 'Panas sekali' } });
    actor.send({ type: 'SUBMIT_TASK' });
    expect(actor.getSnapshot().context.draft.action.new).toHaveLength(1);
    expect(actor.getSnapshot().context.draft.action.new[0]!.subject).toBe('Panas sekali');
    // a task that does not exist is not opened
    actor.send({ type: 'OPEN_TASK', group: 'response', index: 3 });
    expect(actor.getSnapshot().value).toBe('action');
    actor.send({ type: 'REMOVE_TASK', group: 'new', index: 0 });
    expect(actor.getSnapshot().context.draft.action.new).toEqual([]);
  });

  it('BACK returns one step: task → action → trigger → info, keeping the draft', () => {
    const { actor } = start({ mode: 'add' });
    fillInfo(actor);
    fillTrigger(actor);
    actor.send({ type: 'ADD_TASK', group: 'response' });
    const steps: string[] = [];
    for (let i = 0; i < 3; i++) {
      actor.send({ type: 'BACK' });
      steps.push(String(actor.getSnapshot().value));
    }
    expect(steps).toEqual(['action', 'trigger', 'info']);
    expect(actor.getSnapshot().context.draft.info.name).toBe('Suhu panel tinggi');
    expect(actor.getSnapshot().context.draft.trigger[4]!.value).toBe('30');
  });

  it('redirects a step reached without the info draft to info (trigger, action, action/task)', () => {
    for (const start_ of ['trigger', 'action', 'task'] as const) {
      const { actor } = start({
        mode: 'add',
        start: start_,
        task: start_ === 'task' ? { group: 'new', index: 0 } : null,
      });
      expect(actor.getSnapshot().value).toBe('info');
    }
  });

  it('RESET empties the draft and returns to info from any step', () => {
    const { actor } = start({ mode: 'add' });
    fillInfo(actor);
    fillTrigger(actor);
    addEmail(actor);
    actor.send({ type: 'ADD_TASK', group: 'new' });
    actor.send({ type: 'RESET' });
    expect(actor.getSnapshot().value).toBe('info');
    expect(actor.getSnapshot().context.draft).toEqual(emptyDraft());
    expect(actor.getSnapshot().context.task).toBeNull();
  });

  it('a refused save stays on the action step, toasts "Tambah rule gagal" and shows what the server named', async () => {
    const refused = new DeviceCallError(
      T.rules.addFailed,
      { trigger: 'DEVICE_ID harus berupa id perangkat' },
      400,
      -10,
    );
    const { actor, calls } = start({ mode: 'add' }, { addFails: refused });
    fillInfo(actor);
    fillTrigger(actor);
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.matches('action') && calls.add.length === 1);
    expect(noticeTexts()).toContain(T.rules.addFailed);
    expect(actor.getSnapshot().context.saveError).toBe('trigger: DEVICE_ID harus berupa id perangkat');
    expect(actor.getSnapshot().status).toBe('active');
  });

  it('CANCEL ends the wizard without a call', () => {
    const { actor, calls } = start({ mode: 'add' });
    fillInfo(actor);
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(calls.add).toEqual([]);
  });
});

describe('rule wizard: update (info/{id}, trigger/{id}, action/{id}, action/task/{id}/{taskId})', () => {
  it('loads the rule and starts at the step its route names', async () => {
    for (const [start_, value] of [
      ['info', 'info'],
      ['trigger', 'trigger'],
      ['action', 'action'],
    ] as const) {
      const { actor, calls } = start({ mode: 'edit', ruleId: 4, start: start_ });
      await waitFor(actor, (s) => !s.matches('loading'));
      expect(actor.getSnapshot().value).toBe(value);
      expect(calls.load).toEqual([4]);
      expect(actor.getSnapshot().context.draft.info.name).toBe('Tangki solar rendah');
      expect(actor.getSnapshot().context.key).toBe('bbm_rendah');
    }
  });

  it('opens the task its route names, or a new one for an unknown task id', async () => {
    const a = start({ mode: 'edit', ruleId: 4, start: 'task', task: { group: 'new', index: 0 } }).actor;
    await waitFor(a, (s) => !s.matches('loading'));
    expect(a.getSnapshot().value).toBe('task');
    expect(a.getSnapshot().context.task).toMatchObject({ group: 'new', index: 0, form: { email: 'ops@example.com' } });
    const b = start({ mode: 'edit', ruleId: 4, start: 'task', task: null }).actor;
    await waitFor(b, (s) => !s.matches('loading'));
    expect(b.getSnapshot().context.task).toMatchObject({ group: 'new', index: null });
  });

  it('sends the id with the changed rule; the duration shown comes back unchanged', async () => {
    const { actor, calls } = start({ mode: 'edit', ruleId: 4, start: 'trigger' });
    await waitFor(actor, (s) => s.matches('trigger'));
    expect(actor.getSnapshot().context.draft.extras.duration).toBe('60');
    actor.send({ type: 'EDIT_ROW', index: 4, patch: { value: '15' } });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.edit[0]).toMatchObject({
      id: 4,
      name: 'Tangki solar rendah',
      category: 11,
      condition: { duration_s: 60 },
      action: { name: 'BBM rendah', new: [{ type: 'EMAIL', email: 'ops@example.com' }], response: [] },
    });
    expect((calls.edit[0] as { trigger: { value: unknown }[] }).trigger[4]!.value).toBe(15);
    expect(noticeTexts()).toContain(T.rules.editSuccess);
  });

  it('RESET on update returns to the rule as loaded, not an empty one', async () => {
    const { actor } = start({ mode: 'edit', ruleId: 4, start: 'info' });
    await waitFor(actor, (s) => s.matches('info'));
    actor.send({ type: 'EDIT_INFO', field: 'name', value: 'Lain' });
    actor.send({ type: 'RESET' });
    expect(actor.getSnapshot().context.draft).toEqual(STORED);
  });

  it('a failed load shows the failure and can be retried', async () => {
    const { actor } = start({ mode: 'edit', ruleId: 4, start: 'info' }, { loadFails: true });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.loadError).toBe('Gagal memuat');
  });

  it('saveBody of an update carries the id', async () => {
    const { actor } = start({ mode: 'edit', ruleId: 9, start: 'info' });
    await waitFor(actor, (s) => s.matches('info'));
    expect(saveBody(actor.getSnapshot().context)).toMatchObject({ id: 9, name: 'Tangki solar rendah' });
  });
});

describe('task ids of the task routes', () => {
  it('reads back what it writes and refuses anything else', () => {
    expect(taskIdOf({ group: 'response', index: 2 })).toBe('response-2');
    expect(parseTaskId('response-2')).toEqual({ group: 'response', index: 2 });
    expect(parseTaskId('new-0')).toEqual({ group: 'new', index: 0 });
    for (const bad of [undefined, '', 'old-1', 'new-', 'new-1x', 'new-12345']) expect(parseTaskId(bad)).toBeNull();
  });
});
