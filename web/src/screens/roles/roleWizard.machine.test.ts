import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { T, type NavEntry } from '@sentra/contracts';
import { roleWizardMachine, saveRequest, validateInfo, type RoleWizardInput } from './roleWizard.machine.js';
import { RoleCallError, type AddRoleBody, type EditRoleBody, type RoleDetail } from './roleCalls.js';
import { notices } from '../../ui/snackbar/notices.js';
import { TREE } from './navTree.test-kit.js';

const detail = (over: Partial<RoleDetail> = {}): RoleDetail => ({
  id: 7,
  name: 'Operator',
  description: 'Lapangan',
  permissions: { task_manage: true },
  navs: [2, 1],
  navsObj: [],
  descendant: false,
  direct: true,
  sys_navs: [
    { id: '_device_list_', label: 'Lihat Perangkat', checked: true },
    { id: '_task_list_', label: 'Tugas', checked: false },
  ],
  user_count: 0,
  navs_root_obj: TREE,
  navs_root: [],
  ...over,
});

function start(
  input: RoleWizardInput,
  opts: {
    tree?: NavEntry[];
    role?: RoleDetail;
    add?: (b: AddRoleBody) => RoleDetail;
    edit?: (b: EditRoleBody) => RoleDetail;
  } = {},
) {
  const calls: { add: AddRoleBody[]; edit: EditRoleBody[] } = { add: [], edit: [] };
  const machine = roleWizardMachine.provide({
    actors: {
      loadNavigationTree: fromPromise(async () => opts.tree ?? TREE),
      loadRole: fromPromise(async () => opts.role ?? detail()),
      addRole: fromPromise(async ({ input }: { input: AddRoleBody }) => {
        calls.add.push(input);
        return (opts.add ?? (() => detail()))(input);
      }),
      editRole: fromPromise(async ({ input }: { input: EditRoleBody }) => {
        calls.edit.push(input);
        return (opts.edit ?? (() => detail()))(input);
      }),
    },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, calls };
}

const fillInfo = (actor: ReturnType<typeof start>['actor'], name = 'Operator_1') => {
  actor.send({ type: 'EDIT_INFO', field: 'name', value: name });
  actor.send({ type: 'EDIT_INFO', field: 'description', value: 'Operator lapangan' });
  actor.send({ type: 'SET_SYS_NAVS', value: ['_device_list_', '_task_list_'] });
};

/** Info filled and submitted, Air chosen, on to the order step. */
const toOrderStep = (actor: ReturnType<typeof start>['actor']) => {
  fillInfo(actor);
  actor.send({ type: 'SUBMIT_INFO' });
  actor.send({ type: 'TOGGLE_NAV', id: 2 });
  actor.send({ type: 'NEXT' });
};

const noticeTexts = () => notices.snapshot().map((n) => n.message);
afterEach(() => {
  for (const n of notices.snapshot()) notices.dismiss(n.id);
});

describe('role wizard: add', () => {
  it('goes info → access → order → save with the picked navigation in the chosen order', async () => {
    const { actor, calls } = start({ mode: 'add' });
    await waitFor(actor, (s) => s.matches('info'));
    fillInfo(actor);
    actor.send({ type: 'SUBMIT_INFO' });
    expect(actor.getSnapshot().value).toBe('access');
    actor.send({ type: 'TOGGLE_NAV', id: 2 });
    actor.send({ type: 'TOGGLE_NAV', id: 4 });
    actor.send({ type: 'NEXT' });
    expect(actor.getSnapshot().value).toBe('sort');
    expect(actor.getSnapshot().context.selected).toEqual([2, 4]);
    actor.send({ type: 'MOVE', from: 1, to: 0 });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('done');
    expect(calls.add).toEqual([
      {
        name: 'Operator_1',
        description: 'Operator lapangan',
        permissions: {},
        sys_navs: ['_device_list_', '_task_list_'],
        descendant: false,
        navs: [4, 2],
      },
    ]);
    expect(noticeTexts()).toContain(T.roles.addSuccess);
  });

  it('saves from the info step (Simpan instead of Berikutnya) when the application has no navigation', async () => {
    const { actor, calls } = start({ mode: 'add' }, { tree: [] });
    await waitFor(actor, (s) => s.matches('info'));
    fillInfo(actor);
    actor.send({ type: 'SUBMIT_INFO' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]).toMatchObject({
      name: 'Operator_1',
      navs: [],
      descendant: false,
      sys_navs: ['_device_list_', '_task_list_'],
    });
  });

  it('saves from the access step when nothing is picked (nothing to order)', async () => {
    const { actor, calls } = start({ mode: 'add' });
    await waitFor(actor, (s) => s.matches('info'));
    fillInfo(actor);
    actor.send({ type: 'SUBMIT_INFO' });
    actor.send({ type: 'NEXT' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]).toMatchObject({ navs: [] });
  });

  it('stays on info with the field messages while the form is invalid', async () => {
    const { actor, calls } = start({ mode: 'add' });
    await waitFor(actor, (s) => s.matches('info'));
    actor.send({ type: 'EDIT_INFO', field: 'permissions', value: '{tidak json' });
    actor.send({ type: 'SUBMIT_INFO' });
    expect(actor.getSnapshot().value).toBe('info');
    expect(actor.getSnapshot().context.infoErrors).toEqual({
      name: T.common.required,
      permissions: T.roles.invalidPermissions,
    });
    actor.send({ type: 'EDIT_INFO', field: 'name', value: 'a b' });
    actor.send({ type: 'EDIT_INFO', field: 'permissions', value: '' });
    actor.send({ type: 'SUBMIT_INFO' });
    expect(actor.getSnapshot().context.infoErrors).toEqual({
      name: T.roles.namePattern,
      permissions: T.common.required,
    });
    expect(calls.add).toEqual([]);
  });

  it("'Include All Children' clears the selection and picks items one by one, each standing for its subtree", async () => {
    const { actor, calls } = start({ mode: 'add' });
    await waitFor(actor, (s) => s.matches('info'));
    fillInfo(actor);
    actor.send({ type: 'SUBMIT_INFO' });
    actor.send({ type: 'TOGGLE_NAV', id: 1 });
    // hierarchical: the whole subtree of Listrik
    expect(actor.getSnapshot().context.selected).toEqual([1, 3, 5, 4]);
    actor.send({ type: 'SET_DESCENDANT', value: true });
    expect(actor.getSnapshot().context.selected).toEqual([]);
    actor.send({ type: 'TOGGLE_NAV', id: 3 });
    actor.send({ type: 'TOGGLE_NAV', id: 1 });
    // Listrik includes Gedung A already
    expect(actor.getSnapshot().context.selected).toEqual([1]);
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.add[0]).toMatchObject({ descendant: true, navs: [1] });
  });

  it('goes back from order to access and from access to info, keeping what was entered', async () => {
    const { actor } = start({ mode: 'add' });
    await waitFor(actor, (s) => s.matches('info'));
    toOrderStep(actor);
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('access');
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('info');
    expect(actor.getSnapshot().context.info.name).toBe('Operator_1');
    expect(actor.getSnapshot().context.selected).toEqual([2]);
  });

  it('notifies the failure and returns to info with "Nama role sudah terpakai" when the name is taken', async () => {
    const { actor } = start(
      { mode: 'add' },
      {
        add: () => {
          throw new RoleCallError(T.roles.addFailed, { name: T.roles.nameTaken }, 400);
        },
      },
    );
    await waitFor(actor, (s) => s.matches('info'));
    toOrderStep(actor);
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.matches('info'));
    expect(actor.getSnapshot().context.infoErrors).toEqual({ name: T.roles.nameTaken });
    expect(noticeTexts()).toContain(T.roles.addFailed);
  });

  it('stays on the order step when the save fails for another reason', async () => {
    const { actor } = start(
      { mode: 'add' },
      {
        add: () => {
          throw new RoleCallError(T.common.noConnection);
        },
      },
    );
    await waitFor(actor, (s) => s.matches('info'));
    toOrderStep(actor);
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => !s.matches('saving'));
    expect(actor.getSnapshot().value).toBe('sort');
    expect(noticeTexts()).toContain(T.common.noConnection);
  });

  it('shows the load failure and retries', async () => {
    let attempts = 0;
    const machine = roleWizardMachine.provide({
      actors: {
        loadNavigationTree: fromPromise(async () => {
          if (++attempts === 1) throw new RoleCallError(T.shell.loadFailed);
          return TREE;
        }),
      },
    });
    const actor = createActor(machine, { input: { mode: 'add' } }).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.loadError).toBe(T.shell.loadFailed);
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('info'));
    expect(actor.getSnapshot().context.tree).toEqual(TREE);
  });

  it('ends cancelled on Batal', async () => {
    const { actor } = start({ mode: 'add' });
    await waitFor(actor, (s) => s.matches('info'));
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().value).toBe('cancelled');
  });
});

describe('role wizard: edit', () => {
  it('fills the info form with the role, saves the info on its own step, then the access and order alone', async () => {
    const { actor, calls } = start({ mode: 'edit', roleId: 7, start: 'info' });
    await waitFor(actor, (s) => s.matches('info'));
    const c = actor.getSnapshot().context;
    expect(c.info).toEqual({
      name: 'Operator',
      description: 'Lapangan',
      permissions: JSON.stringify({ task_manage: true }, null, 2),
      sys_navs: ['_device_list_'],
    });
    expect(c.selected).toEqual([2, 1]);
    actor.send({ type: 'SET_SYS_NAVS', value: ['_device_list_', '_task_list_'] });
    actor.send({ type: 'SUBMIT_INFO' });
    await waitFor(actor, (s) => s.matches('access'));
    // saved already: a user who leaves now keeps the info
    expect(calls.edit).toEqual([
      {
        id: 7,
        name: 'Operator',
        description: 'Lapangan',
        permissions: { task_manage: true },
        sys_navs: ['_device_list_', '_task_list_'],
      },
    ]);
    expect(noticeTexts()).toEqual([T.roles.infoSaved]);
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'MOVE', from: 0, to: 1 });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.edit[1]).toEqual({ id: 7, descendant: false, navs: [1, 2] });
    // the final result replaces the info step's notice
    expect(noticeTexts()).toEqual([T.roles.editSuccess]);
  });

  it("stays on info with the server's message when the info save is refused, and saves nothing else", async () => {
    const { actor, calls } = start(
      { mode: 'edit', roleId: 7, start: 'info' },
      {
        edit: () => {
          throw new RoleCallError(T.roles.editFailed, { name: 'Nama role sudah terpakai' });
        },
      },
    );
    await waitFor(actor, (s) => s.matches('info'));
    actor.send({ type: 'SUBMIT_INFO' });
    await waitFor(actor, (s) => !s.matches('savingInfo'));
    expect(actor.getSnapshot().value).toBe('info');
    expect(actor.getSnapshot().context.infoErrors).toEqual({ name: 'Nama role sudah terpakai' });
    expect(calls.edit).toHaveLength(1);
    expect(noticeTexts()).toContain(T.roles.editFailed);
  });

  it('saves only the info form from _role_edit_/{id} when the application has no navigation', async () => {
    const { actor, calls } = start(
      { mode: 'edit', roleId: 7, start: 'info' },
      { role: detail({ navs: [], navs_root_obj: [] }) },
    );
    await waitFor(actor, (s) => s.matches('info'));
    actor.send({ type: 'EDIT_INFO', field: 'name', value: 'Operator_2' });
    actor.send({ type: 'SUBMIT_INFO' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.edit).toEqual([
      {
        id: 7,
        name: 'Operator_2',
        description: 'Lapangan',
        permissions: { task_manage: true },
        sys_navs: ['_device_list_'],
      },
    ]);
  });

  it('starts at access (Atur Akses) and sends only the access form; info is not reachable by BACK', async () => {
    const { actor, calls } = start({ mode: 'edit', roleId: 7, start: 'access' });
    await waitFor(actor, (s) => s.matches('access'));
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('access');
    actor.send({ type: 'TOGGLE_NAV', id: 2 });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.edit).toEqual([{ id: 7, descendant: false, navs: [1] }]);
  });

  it('starts at the order step (Reorder) when the role has navigation', async () => {
    const { actor, calls } = start({ mode: 'edit', roleId: 7, start: 'sort' });
    await waitFor(actor, (s) => s.matches('sort'));
    actor.send({ type: 'MOVE', from: 1, to: 0 });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.edit).toEqual([{ id: 7, descendant: false, navs: [1, 2] }]);
  });

  it('notifies "Edit Role Gagal" and stays when the save fails', async () => {
    const { actor } = start(
      { mode: 'edit', roleId: 7, start: 'sort' },
      {
        edit: () => {
          throw new RoleCallError(T.roles.editFailed);
        },
      },
    );
    await waitFor(actor, (s) => s.matches('sort'));
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => !s.matches('saving'));
    expect(actor.getSnapshot().value).toBe('sort');
    expect(noticeTexts()).toContain(T.roles.editFailed);
  });
});

describe('role info form rules', () => {
  it('uses the catalogue messages of the contract', () => {
    expect(validateInfo({ name: 'Operator_1', description: '', permissions: '{}', sys_navs: [] })).toEqual({});
    expect(validateInfo({ name: 'a'.repeat(31), description: '', permissions: '[1]', sys_navs: [] })).toEqual({
      name: T.common.max(30),
      permissions: T.roles.invalidPermissions,
    });
  });
  it('builds the add body with the parsed permissions', () => {
    const req = saveRequest({
      mode: 'add',
      start: 'info',
      info: { name: ' Op ', description: ' x ', permissions: '{"a":1}', sys_navs: [] },
      infoErrors: {},
      tree: [],
      selected: [3],
      descendant: true,
      accessShown: true,
      returnTo: 'sort',
    });
    expect(req).toEqual({
      kind: 'add',
      body: { name: 'Op', description: 'x', permissions: { a: 1 }, sys_navs: [], descendant: true, navs: [3] },
    });
  });
});
