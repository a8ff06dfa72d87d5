// The role wizard (spec 01 section 4 "Role creation" and "Role edit"): info → access → order → save.
// With no navigation items the info step saves at once (its button reads Simpan); an access step with nothing picked
// saves too (nothing to order). Edit starts at info (_role_edit_/{id}) or at access / order (_role_edit_sort_/{id})
// and sends only the forms it went through. Editing, the info step saves on its own (the spec's edit route gives info
// its own address), so a user who edits the info and leaves keeps it; the access and order steps then send only
// the access form. API calls are the named actors below; tests replace them with .provide().
import { assign, fromPromise, setup } from 'xstate';
import { AddRoleInput, T, type NavEntry, type SysNav } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import { fieldErrorsOf, type FieldErrors } from '../../ui/forms.js';
import {
  addRole,
  editRole,
  loadNavigationTree,
  loadRole,
  RoleCallError,
  checkedSysNavs,
  type AddRoleBody,
  type EditRoleBody,
  type RoleDetail,
} from './roleCalls.js';
import { moveNav, toggleNav } from './navTree.js';

export type WizardStep = 'info' | 'access' | 'sort';
export const WIZARD_STEPS: readonly WizardStep[] = ['info', 'access', 'sort'];

export interface RoleInfoForm {
  name: string;
  description: string;
  /** JSON text, as the form edits it */
  permissions: string;
  sys_navs: SysNav[];
}

export type RoleWizardInput = { mode: 'add' } | { mode: 'edit'; roleId: number; start: WizardStep };

export interface RoleWizardContext {
  mode: 'add' | 'edit';
  roleId?: number;
  start: WizardStep;
  info: RoleInfoForm;
  infoErrors: FieldErrors;
  /** the application's navigation tree (dashboards) */
  tree: NavEntry[];
  /** picked navigation ids, in the order step's order */
  selected: number[];
  descendant: boolean;
  /** the access step was shown, so its form is part of the save */
  accessShown: boolean;
  /** edit: the info form was saved by its own step (the final save leaves it out) */
  infoSaved?: boolean;
  /** where a failed save returns */
  returnTo: WizardStep;
  loadError?: string;
  /** why the last save failed */
  saveError?: unknown;
  saved?: RoleDetail;
}

export type RoleWizardEvent =
  | { type: 'EDIT_INFO'; field: 'name' | 'description' | 'permissions'; value: string }
  | { type: 'SET_SYS_NAVS'; value: SysNav[] }
  | { type: 'SUBMIT_INFO' }
  | { type: 'TOGGLE_NAV'; id: number }
  | { type: 'SET_DESCENDANT'; value: boolean }
  | { type: 'NEXT' }
  | { type: 'MOVE'; from: number; to: number }
  | { type: 'SAVE' }
  | { type: 'BACK' }
  | { type: 'RETRY' }
  | { type: 'CANCEL' };

export const EMPTY_INFO: RoleInfoForm = { name: '', description: '', permissions: '{}', sys_navs: [] };

const infoSchema = AddRoleInput.pick({ name: true, description: true, permissions: true, sys_navs: true });

/** The info form's problems: required fields first, then the contract's rules (name pattern, permissions JSON). */
export function validateInfo(info: RoleInfoForm): FieldErrors {
  const errors: FieldErrors = {};
  if (!info.name.trim()) errors.name = T.common.required;
  if (!info.permissions.trim()) errors.permissions = T.common.required;
  const parsed = infoSchema.safeParse({
    name: info.name.trim(),
    description: info.description,
    permissions: info.permissions,
    sys_navs: info.sys_navs,
  });
  return parsed.success ? errors : { ...fieldErrorsOf(parsed.error), ...errors };
}

const infoBody = (info: RoleInfoForm) => ({
  name: info.name.trim(),
  description: info.description.trim(),
  permissions: JSON.parse(info.permissions) as Record<string, unknown>,
  sys_navs: info.sys_navs,
});

/** The body of add, or of edit with the forms this wizard went through. */
export function saveRequest(
  c: RoleWizardContext,
): { kind: 'add'; body: AddRoleBody } | { kind: 'edit'; body: EditRoleBody } {
  const access = { descendant: c.descendant, navs: c.selected };
  if (c.mode === 'add')
    return {
      kind: 'add',
      body: { ...infoBody(c.info), ...(c.accessShown ? access : { descendant: false, navs: [] }) },
    };
  return {
    kind: 'edit',
    body: {
      id: c.roleId!,
      ...(c.start === 'info' && !c.infoSaved ? infoBody(c.info) : {}),
      ...(c.accessShown || c.start !== 'info' ? access : {}),
    },
  };
}

/** edit: the info step's own save */
export const infoSaveRequest = (c: RoleWizardContext): EditRoleBody => ({ id: c.roleId!, ...infoBody(c.info) });

const ROLE_INFO_FIELDS = ['name', 'description', 'permissions', 'sys_navs'];

const withoutField = (errors: FieldErrors, field: string): FieldErrors => {
  if (!(field in errors)) return errors;
  const { [field]: _gone, ...rest } = errors;
  return rest;
};

export const roleWizardMachine = setup({
  types: {
    context: {} as RoleWizardContext,
    events: {} as RoleWizardEvent,
    input: {} as RoleWizardInput,
  },
  actors: {
    loadNavigationTree: fromPromise<NavEntry[]>(() => loadNavigationTree()),
    loadRole: fromPromise<RoleDetail, { id: number }>(({ input }) => loadRole(input.id)),
    addRole: fromPromise<RoleDetail, AddRoleBody>(({ input }) => addRole(input)),
    editRole: fromPromise<RoleDetail, EditRoleBody>(({ input }) => editRole(input)),
  },
  guards: {
    isEdit: ({ context }) => context.mode === 'edit',
    startsAtInfo: ({ context }) => context.start === 'info',
    startsAtSort: ({ context }) => context.start === 'sort' && context.selected.length > 0,
    infoInvalid: ({ context }) => Object.keys(validateInfo(context.info)).length > 0,
    hasNavs: ({ context }) => context.tree.length > 0,
    hasSelection: ({ context }) => context.selected.length > 0,
    canGoBackToInfo: ({ context }) => context.mode === 'add' || context.start === 'info',
    failedOnInfoField: ({ context }) => {
      const err = context.saveError;
      return err instanceof RoleCallError && Object.keys(err.fieldErrors).some((f) => ROLE_INFO_FIELDS.includes(f));
    },
    returnsToInfo: ({ context }) => context.returnTo === 'info',
    returnsToAccess: ({ context }) => context.returnTo === 'access',
  },
  actions: {
    assignInfoErrors: assign({ infoErrors: ({ context }) => validateInfo(context.info) }),
    clearInfoErrors: assign({ infoErrors: {} }),
    markAccessShown: assign({ accessShown: true }),
    returnToInfo: assign({ returnTo: 'info' as WizardStep }),
    returnToAccess: assign({ returnTo: 'access' as WizardStep }),
    returnToSort: assign({ returnTo: 'sort' as WizardStep }),
    notifySaved: ({ context }) =>
      notices.about('roles.save').success(context.mode === 'add' ? T.roles.addSuccess : T.roles.editSuccess),
    notifyInfoSaved: () => notices.about('roles.save').success(T.roles.infoSaved),
    notifySaveFailed: ({ context }) => {
      const err = context.saveError;
      notices
        .about('roles.save')
        .error(
          err instanceof RoleCallError ? err.message : context.mode === 'add' ? T.roles.addFailed : T.roles.editFailed,
        );
    },
    assignSaveErrors: assign({
      infoErrors: ({ context }) => {
        const err = context.saveError;
        return err instanceof RoleCallError
          ? Object.fromEntries(Object.entries(err.fieldErrors).filter(([f]) => ROLE_INFO_FIELDS.includes(f)))
          : {};
      },
    }),
  },
}).createMachine({
  id: 'roleWizard',
  context: ({ input }) => ({
    mode: input.mode,
    roleId: input.mode === 'edit' ? input.roleId : undefined,
    start: input.mode === 'edit' ? input.start : 'info',
    info: EMPTY_INFO,
    infoErrors: {},
    tree: [],
    selected: [],
    descendant: false,
    accessShown: false,
    returnTo: 'info',
  }),
  initial: 'loading',
  states: {
    loading: {
      initial: 'choose',
      states: {
        choose: { always: [{ guard: 'isEdit', target: 'role' }, { target: 'navigation' }] },
        navigation: {
          invoke: {
            src: 'loadNavigationTree',
            onDone: { target: '#roleWizard.info', actions: assign({ tree: ({ event }) => event.output }) },
            onError: {
              target: '#roleWizard.failed',
              actions: assign({
                loadError: ({ event }) => (event.error instanceof Error ? event.error.message : T.shell.loadFailed),
              }),
            },
          },
        },
        role: {
          invoke: {
            src: 'loadRole',
            input: ({ context }) => ({ id: context.roleId! }),
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => {
                const r = event.output;
                return {
                  tree: r.navs_root_obj,
                  selected: r.navs,
                  descendant: r.descendant,
                  info: {
                    name: r.name,
                    description: r.description ?? '',
                    permissions: JSON.stringify(r.permissions, null, 2),
                    sys_navs: checkedSysNavs(r),
                  },
                };
              }),
            },
            onError: {
              target: '#roleWizard.failed',
              actions: assign({
                loadError: ({ event }) => (event.error instanceof Error ? event.error.message : T.shell.loadFailed),
              }),
            },
          },
        },
        ready: {
          always: [
            { guard: 'startsAtInfo', target: '#roleWizard.info' },
            { guard: 'startsAtSort', target: '#roleWizard.sort', actions: 'markAccessShown' },
            { target: '#roleWizard.access' },
          ],
        },
      },
    },
    failed: {
      on: { RETRY: { target: 'loading', actions: assign({ loadError: undefined }) }, CANCEL: 'cancelled' },
    },
    info: {
      on: {
        // an edited field loses its message until the next submit
        EDIT_INFO: {
          actions: assign({
            info: ({ context, event }) => ({ ...context.info, [event.field]: event.value }),
            infoErrors: ({ context, event }) => withoutField(context.infoErrors, event.field),
          }),
        },
        SET_SYS_NAVS: {
          actions: assign({
            info: ({ context, event }) => ({ ...context.info, sys_navs: event.value }),
            infoErrors: ({ context }) => withoutField(context.infoErrors, 'sys_navs'),
          }),
        },
        SUBMIT_INFO: [
          { guard: 'infoInvalid', actions: 'assignInfoErrors' },
          { guard: 'isEdit', target: 'savingInfo', actions: ['clearInfoErrors', 'returnToInfo'] },
          { guard: 'hasNavs', target: 'access', actions: 'clearInfoErrors' },
          { target: 'saving', actions: ['clearInfoErrors', 'returnToInfo'] },
        ],
        CANCEL: 'cancelled',
      },
    },
    // edit: the info form is saved before the access step (with no navigation there is no access step: done)
    savingInfo: {
      invoke: {
        src: 'editRole',
        input: ({ context }) => infoSaveRequest(context),
        onDone: [
          {
            guard: 'hasNavs',
            target: 'access',
            actions: [assign({ infoSaved: true, saved: ({ event }) => event.output }), 'notifyInfoSaved'],
          },
          { target: 'done', actions: [assign({ infoSaved: true, saved: ({ event }) => event.output }), 'notifySaved'] },
        ],
        onError: { target: 'saveFailed', actions: assign({ saveError: ({ event }) => event.error }) },
      },
    },
    access: {
      entry: 'markAccessShown',
      on: {
        TOGGLE_NAV: {
          actions: assign({
            selected: ({ context, event }) => toggleNav(context.tree, context.selected, event.id, context.descendant),
          }),
        },
        // 'Include All Children' changes what a check means, so the selection starts over
        SET_DESCENDANT: { actions: assign({ descendant: ({ event }) => event.value, selected: [] }) },
        NEXT: [
          { guard: 'hasSelection', target: 'sort' },
          { target: 'saving', actions: 'returnToAccess' },
        ],
        BACK: { guard: 'canGoBackToInfo', target: 'info' },
        CANCEL: 'cancelled',
      },
    },
    sort: {
      on: {
        MOVE: {
          actions: assign({ selected: ({ context, event }) => moveNav(context.selected, event.from, event.to) }),
        },
        SAVE: { target: 'saving', actions: 'returnToSort' },
        BACK: 'access',
        CANCEL: 'cancelled',
      },
    },
    saving: {
      initial: 'choose',
      states: {
        choose: { always: [{ guard: 'isEdit', target: 'edit' }, { target: 'add' }] },
        add: {
          invoke: {
            src: 'addRole',
            input: ({ context }) => saveRequest(context).body as AddRoleBody,
            onDone: {
              target: '#roleWizard.done',
              actions: [assign({ saved: ({ event }) => event.output }), 'notifySaved'],
            },
            onError: { target: '#roleWizard.saveFailed', actions: assign({ saveError: ({ event }) => event.error }) },
          },
        },
        edit: {
          invoke: {
            src: 'editRole',
            input: ({ context }) => saveRequest(context).body as EditRoleBody,
            onDone: {
              target: '#roleWizard.done',
              actions: [assign({ saved: ({ event }) => event.output }), 'notifySaved'],
            },
            onError: { target: '#roleWizard.saveFailed', actions: assign({ saveError: ({ event }) => event.error }) },
          },
        },
      },
    },
    // a transient state: notify, keep the server's field messages, and return where the save started (or to info
    // when the server refused an info field, such as a taken name)
    saveFailed: {
      entry: ['notifySaveFailed', 'assignSaveErrors'],
      always: [
        { guard: 'returnsToInfo', target: 'info' },
        { guard: 'failedOnInfoField', target: 'info' },
        { guard: 'returnsToAccess', target: 'access' },
        { target: 'sort' },
      ],
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
