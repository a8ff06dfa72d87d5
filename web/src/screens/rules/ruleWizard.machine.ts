// The rule editor wizard (spec 03 section 2.9): Info → Trigger → Action, the action step opening one notification
// task at a time (routes action/task and action/task/{taskId}), then save. Create and update (the update starts at the
// step its route names once the rule is loaded); a step reached without the info draft goes back to info; BACK
// returns one step; RESET empties the draft (update: back to the rule as loaded). API calls are the named actors
// below; tests replace them with .provide().
import { assign, fromPromise, setup } from 'xstate';
import { T } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import type { FieldErrors } from '../../ui/forms.js';
import {
  draftAction,
  draftExtras,
  draftTriggers,
  emptyDraft,
  emptyTask,
  infoLimitError,
  validateInfo,
  validateTask,
  validateTrigger,
  type RuleDraft,
  type RuleExtras,
  type RuleInfo,
  type RuleTask,
  type TaskGroup,
  type TriggerRow,
} from './ruleDraft.js';
import { DeviceCallError } from '../devices/deviceCalls.js';
import { addRule, editRule, loadRuleDraft, type AddRuleBody, type EditRuleBody, type LoadedRule } from './ruleCalls.js';

export type WizardStep = 'info' | 'trigger' | 'action' | 'task';
export const WIZARD_STEPS: readonly Exclude<WizardStep, 'task'>[] = ['info', 'trigger', 'action'];

/** A task of the action's groups: `new-0`, `response-2` (the {taskId} of the task routes). */
export interface TaskRef {
  group: TaskGroup;
  index: number;
}
export const taskIdOf = (r: TaskRef) => `${r.group}-${r.index}`;
export function parseTaskId(id: string | undefined): TaskRef | null {
  const m = /^(new|response)-(\d{1,3})$/.exec(id ?? '');
  return m ? { group: m[1] as TaskGroup, index: Number(m[2]) } : null;
}

export type RuleWizardInput =
  | { mode: 'add'; start?: WizardStep; task?: TaskRef | null }
  | { mode: 'edit'; ruleId: number; start: WizardStep; task?: TaskRef | null };

export interface TaskEditing {
  group: TaskGroup;
  /** null: a new task */
  index: number | null;
  form: RuleTask;
  errors: FieldErrors;
}

export interface RuleWizardContext {
  mode: 'add' | 'edit';
  ruleId?: number;
  start: WizardStep;
  startTask: TaskRef | null;
  draft: RuleDraft;
  /** what RESET returns to: empty for add, the rule as loaded for edit */
  initial: RuleDraft;
  /** edit: the stored key (read-only) */
  key?: string;
  /** edit: false when the stored rule has parts the wizard cannot show (its page offers the manual form) */
  wizardOk: boolean;
  /** what the server refused in the last save (its first field message), shown on the action step */
  saveError?: string;
  infoErrors: FieldErrors;
  triggerErrors: FieldErrors;
  task: TaskEditing | null;
  loadError?: string;
}

export type RuleWizardEvent =
  | { type: 'EDIT_INFO'; field: 'name' | 'description'; value: string }
  | { type: 'SET_CATEGORY'; value: number }
  | { type: 'SUBMIT_INFO' }
  | { type: 'ADD_ROW' }
  | { type: 'REMOVE_ROW'; index: number }
  | { type: 'EDIT_ROW'; index: number; patch: Partial<TriggerRow> }
  | { type: 'EDIT_EXTRAS'; patch: Partial<RuleExtras> }
  | { type: 'NEXT' }
  | { type: 'EDIT_ACTION_TITLE'; value: string }
  | { type: 'ADD_TASK'; group: TaskGroup }
  | { type: 'OPEN_TASK'; group: TaskGroup; index: number }
  | { type: 'REMOVE_TASK'; group: TaskGroup; index: number }
  | { type: 'EDIT_TASK'; patch: Partial<RuleTask> }
  | { type: 'SUBMIT_TASK' }
  | { type: 'SAVE' }
  | { type: 'BACK' }
  | { type: 'RESET' }
  | { type: 'RETRY' }
  | { type: 'CANCEL' };

/** The body of add (the wizard variant: info fields plus condition, trigger, action) or edit. */
export function saveBody(c: RuleWizardContext): AddRuleBody | EditRuleBody {
  const d = c.draft;
  const body = {
    name: d.info.name.trim(),
    category: d.info.category,
    description: d.info.description.trim(),
    trigger: draftTriggers(d),
    condition: draftExtras(d),
    action: draftAction(d),
  } as AddRuleBody;
  return c.mode === 'add' ? body : ({ id: c.ruleId!, ...body } as EditRuleBody);
}

const withoutKey = (errors: FieldErrors, key: string): FieldErrors => {
  if (!(key in errors)) return errors;
  const { [key]: _gone, ...rest } = errors;
  return rest;
};

const openTask = (draft: RuleDraft, ref: TaskRef): TaskEditing | null => {
  const t = draft.action[ref.group][ref.index];
  return t ? { group: ref.group, index: ref.index, form: { ...t }, errors: {} } : null;
};

// every editing step: RESET empties the draft (update: the rule as loaded) and returns to info; CANCEL leaves
const EDITING = {
  RESET: { target: '#ruleWizard.info', actions: 'resetDraft' },
  CANCEL: '#ruleWizard.cancelled',
} as const;

/** What the server refused in a save: its first field message with the field's path, if it named one. */
const saveMessage = (e: unknown) => {
  if (!(e instanceof DeviceCallError)) return undefined;
  const first = Object.entries(e.fieldErrors)[0];
  return first ? `${first[0]}: ${first[1]}` : undefined;
};

const failure = (e: unknown) => (e instanceof Error ? e.message : T.shell.loadFailed);

export const ruleWizardMachine = setup({
  types: {
    context: {} as RuleWizardContext,
    events: {} as RuleWizardEvent,
    input: {} as RuleWizardInput,
  },
  actors: {
    loadRule: fromPromise<LoadedRule, { id: number }>(({ input }) => loadRuleDraft(input.id)),
    addRule: fromPromise<unknown, AddRuleBody>(({ input }) => addRule(input)),
    editRule: fromPromise<unknown, EditRuleBody>(({ input }) => editRule(input)),
  },
  guards: {
    isEdit: ({ context }) => context.mode === 'edit',
    infoInvalid: ({ context }) => Object.keys(validateInfo(context.draft.info)).length > 0,
    triggerInvalid: ({ context }) =>
      Object.keys(validateTrigger(context.draft.trigger, context.draft.extras)).length > 0,
    startsAtTrigger: ({ context }) => context.start === 'trigger',
    startsAtAction: ({ context }) => context.start === 'action',
    startsAtTask: ({ context }) => context.start === 'task',
    startTaskExists: ({ context }) => context.startTask !== null && openTask(context.draft, context.startTask) !== null,
    taskInvalid: ({ context }) => !!context.task && Object.keys(validateTask(context.task.form)).length > 0,
  },
  actions: {
    notifySaved: ({ context }) => notices.success(context.mode === 'add' ? T.rules.addSuccess : T.rules.editSuccess),
    notifySaveFailed: ({ context, event }) => {
      const err = (event as { error?: unknown }).error;
      notices.error(
        err instanceof DeviceCallError ? err.message : context.mode === 'add' ? T.rules.addFailed : T.rules.editFailed,
      );
    },
    resetDraft: assign({ draft: ({ context }) => context.initial, infoErrors: {}, triggerErrors: {}, task: null }),
    openStartTask: assign({
      task: ({ context }) => (context.startTask ? openTask(context.draft, context.startTask) : null),
    }),
    openNewTask: assign({
      task: ({ context }) => ({ group: context.startTask?.group ?? 'new', index: null, form: emptyTask(), errors: {} }),
    }),
  },
}).createMachine({
  id: 'ruleWizard',
  context: ({ input }) => ({
    mode: input.mode,
    ruleId: input.mode === 'edit' ? input.ruleId : undefined,
    start: input.start ?? 'info',
    startTask: input.task ?? null,
    draft: emptyDraft(),
    initial: emptyDraft(),
    infoErrors: {},
    triggerErrors: {},
    task: null,
    wizardOk: true,
  }),
  initial: 'loading',
  states: {
    loading: {
      initial: 'choose',
      states: {
        choose: { always: [{ guard: 'isEdit', target: 'rule' }, { target: 'ready' }] },
        rule: {
          invoke: {
            src: 'loadRule',
            input: ({ context }) => ({ id: context.ruleId! }),
            onDone: {
              target: 'ready',
              actions: assign({
                draft: ({ event }) => event.output.draft,
                initial: ({ event }) => event.output.draft,
                key: ({ event }) => event.output.key,
                wizardOk: ({ event }) => event.output.wizardOk,
              }),
            },
            onError: {
              target: '#ruleWizard.failed',
              actions: assign({ loadError: ({ event }) => failure(event.error) }),
            },
          },
        },
        // a later step reached without a usable info draft (a new wizard, a reload) starts at info
        ready: {
          always: [
            { guard: 'infoInvalid', target: '#ruleWizard.info' },
            { guard: 'startsAtTrigger', target: '#ruleWizard.trigger' },
            { guard: 'startsAtAction', target: '#ruleWizard.action' },
            { guard: 'startTaskExists', target: '#ruleWizard.task', actions: 'openStartTask' },
            { guard: 'startsAtTask', target: '#ruleWizard.task', actions: 'openNewTask' },
            { target: '#ruleWizard.info' },
          ],
        },
      },
    },
    failed: {
      on: { RETRY: { target: 'loading', actions: assign({ loadError: undefined }) }, CANCEL: 'cancelled' },
    },
    info: {
      on: {
        ...EDITING,
        EDIT_INFO: {
          actions: assign({
            draft: ({ context, event }) => ({
              ...context.draft,
              info: { ...context.draft.info, [event.field]: event.value },
            }),
            infoErrors: ({ context, event }) => {
              const rest = withoutKey(context.infoErrors, event.field);
              const over = infoLimitError(event.field, event.value);
              return over ? { ...rest, [event.field]: over } : rest;
            },
          }),
        },
        SET_CATEGORY: {
          actions: assign({
            draft: ({ context, event }) => ({
              ...context.draft,
              info: { ...context.draft.info, category: event.value } as RuleInfo,
            }),
            infoErrors: ({ context }) => withoutKey(context.infoErrors, 'category'),
          }),
        },
        SUBMIT_INFO: [
          { guard: 'infoInvalid', actions: assign({ infoErrors: ({ context }) => validateInfo(context.draft.info) }) },
          { target: 'trigger', actions: assign({ infoErrors: {} }) },
        ],
      },
    },
    trigger: {
      on: {
        ...EDITING,
        ADD_ROW: {
          actions: assign({
            draft: ({ context }) => ({
              ...context.draft,
              trigger: [...context.draft.trigger, { field: 'VALUE', op: '>', value: '' }],
            }),
          }),
        },
        REMOVE_ROW: {
          actions: assign({
            draft: ({ context, event }) => ({
              ...context.draft,
              trigger: context.draft.trigger.filter((_, i) => i !== event.index),
            }),
            // row messages are keyed by position: after a removal they are recomputed on the next NEXT
            triggerErrors: {},
          }),
        },
        EDIT_ROW: {
          actions: assign({
            draft: ({ context, event }) => ({
              ...context.draft,
              trigger: context.draft.trigger.map((r, i) => {
                if (i !== event.index) return r;
                const next = { ...r, ...event.patch };
                // another field means another kind of value: the old one does not carry over
                return event.patch.field && event.patch.field !== r.field ? { ...next, value: '' } : next;
              }),
            }),
            triggerErrors: ({ context, event }) =>
              withoutKey(withoutKey(context.triggerErrors, `row.${event.index}`), 'trigger'),
          }),
        },
        EDIT_EXTRAS: {
          actions: assign({
            draft: ({ context, event }) => ({ ...context.draft, extras: { ...context.draft.extras, ...event.patch } }),
            triggerErrors: ({ context, event }) =>
              Object.keys(event.patch).reduce((e, k) => withoutKey(e, k), context.triggerErrors),
          }),
        },
        NEXT: [
          {
            guard: 'triggerInvalid',
            actions: assign({
              triggerErrors: ({ context }) => validateTrigger(context.draft.trigger, context.draft.extras),
            }),
          },
          { target: 'action', actions: assign({ triggerErrors: {} }) },
        ],
        BACK: 'info',
      },
    },
    action: {
      entry: assign({ task: null }),
      on: {
        ...EDITING,
        EDIT_ACTION_TITLE: {
          actions: assign({
            draft: ({ context, event }) => ({
              ...context.draft,
              action: { ...context.draft.action, title: event.value },
            }),
          }),
        },
        ADD_TASK: {
          target: 'task',
          actions: assign({
            task: ({ event }) => ({ group: event.group, index: null, form: emptyTask(), errors: {} }),
          }),
        },
        OPEN_TASK: {
          target: 'task',
          guard: ({ context, event }) => openTask(context.draft, event) !== null,
          actions: assign({ task: ({ context, event }) => openTask(context.draft, event) }),
        },
        REMOVE_TASK: {
          actions: assign({
            draft: ({ context, event }) => ({
              ...context.draft,
              action: {
                ...context.draft.action,
                [event.group]: context.draft.action[event.group].filter((_, i) => i !== event.index),
              },
            }),
          }),
        },
        SAVE: { target: 'saving', actions: assign({ saveError: undefined }) },
        BACK: 'trigger',
      },
    },
    task: {
      on: {
        ...EDITING,
        EDIT_TASK: {
          actions: assign({
            task: ({ context, event }) =>
              context.task && {
                ...context.task,
                form: { ...context.task.form, ...event.patch },
                errors: Object.keys(event.patch).reduce((e, k) => withoutKey(e, k), context.task.errors),
              },
          }),
        },
        SUBMIT_TASK: [
          {
            guard: 'taskInvalid',
            actions: assign({
              task: ({ context }) => context.task && { ...context.task, errors: validateTask(context.task.form) },
            }),
          },
          {
            target: 'action',
            actions: assign({
              draft: ({ context }) => {
                const t = context.task!;
                const list = [...context.draft.action[t.group]];
                if (t.index === null) list.push(t.form);
                else list[t.index] = t.form;
                return { ...context.draft, action: { ...context.draft.action, [t.group]: list } };
              },
            }),
          },
        ],
        BACK: 'action',
      },
    },
    saving: {
      initial: 'choose',
      states: {
        choose: { always: [{ guard: 'isEdit', target: 'edit' }, { target: 'add' }] },
        add: {
          invoke: {
            src: 'addRule',
            input: ({ context }) => saveBody(context) as AddRuleBody,
            onDone: { target: '#ruleWizard.done', actions: 'notifySaved' },
            onError: {
              target: '#ruleWizard.action',
              actions: [assign({ saveError: ({ event }) => saveMessage(event.error) }), 'notifySaveFailed'],
            },
          },
        },
        edit: {
          invoke: {
            src: 'editRule',
            input: ({ context }) => saveBody(context) as EditRuleBody,
            onDone: { target: '#ruleWizard.done', actions: 'notifySaved' },
            onError: {
              target: '#ruleWizard.action',
              actions: [assign({ saveError: ({ event }) => saveMessage(event.error) }), 'notifySaveFailed'],
            },
          },
        },
      },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
