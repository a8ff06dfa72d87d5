import { describe, expect, it } from 'vitest';
import { T, type NavEntry } from '@sentra/contracts';
import { firstEntry, flattenEntries, memberMenu, tenantMenu } from './menus.js';
import { grantedRoutes, routePath, routeTo, screenRoutes } from './routeRegistry.js';

const nav = (id: number, path: string, label: string, children: NavEntry[] = []): NavEntry => ({
  id,
  path,
  label,
  children,
});

describe('tenant menu', () => {
  it("lists the spec's entries in order with their route keys", () => {
    const m = tenantMenu('/admin/kebun');
    expect(m.main.map((e) => e.label)).toEqual([
      T.nav.dashboard,
      T.nav.role,
      T.nav.users,
      T.nav.devices,
      T.nav.tags,
      T.nav.rules,
      T.nav.tasks,
      T.nav.credentials,
      T.nav.about,
    ]);
    expect(m.main.map((e) => e.to)).toEqual(
      [
        '_dashboard_list_',
        '_role_list_',
        '_user_list_',
        '_device_list_',
        '_tag_list_',
        '_rule_list_',
        '_task_list_',
        '@credentials',
        '@about',
      ].map((k) => `/admin/kebun/${k}`),
    );
  });
  it('gives a tenant every route, and every menu entry has one', () => {
    const keys = grantedRoutes(screenRoutes, 'all').map((r) => r.key);
    for (const e of tenantMenu('/admin/x').main) expect(keys).toContain(e.to.slice('/admin/x/'.length));
  });
});

describe('application-user menu', () => {
  it('maps navs_root keys to Dasboard, Role + Pengguna, Perangkat, and Tugas in a separate list', () => {
    const m = memberMenu('/kebun', {
      navs: [],
      navs_root: ['_dashboard_manage_', '_role_manage_', '_device_list_', '_task_list_'],
    });
    expect(m.main.map((e) => e.label)).toEqual([T.nav.dashboardMember, T.nav.role, T.nav.users, T.nav.devices]);
    expect(m.system.map((e) => e.label)).toEqual([T.nav.tasks]);
  });
  it('gives Rule only with device management (the rule calls need _device_manage_), Tugas only with _task_list_', () => {
    const manage = memberMenu('/kebun', { navs: [], navs_root: ['_device_manage_'] });
    expect(manage.main.map((e) => e.label)).toEqual([T.nav.devices, T.nav.rules]);
    expect(manage.system).toEqual([]);
    const listOnly = memberMenu('/kebun', { navs: [], navs_root: ['_device_list_', '_task_list_'] });
    expect(listOnly.main.map((e) => e.label)).toEqual([T.nav.devices]);
    expect(listOnly.system.map((e) => e.to)).toEqual(['/kebun/_task_list_']);
    const ruleKeys = grantedRoutes(screenRoutes, ['_device_manage_']).map((r) => r.key);
    expect(ruleKeys).toEqual(
      expect.arrayContaining(['_rule_list_', '_rule_add_', '_rule_editor_/action/task/{id}/{taskId}']),
    );
    expect(ruleKeys).not.toContain('_task_list_');
    const taskKeys = grantedRoutes(screenRoutes, ['_task_list_']).map((r) => r.key);
    expect(taskKeys).toEqual(expect.arrayContaining(['_task_list_', '_task_action_/{id}']));
    expect(taskKeys.some((k) => k.startsWith('_rule_'))).toBe(false);
  });
  it('gives Pengguna once for _user_manage_ with _role_manage_', () => {
    const m = memberMenu('/kebun', { navs: [], navs_root: ['_user_manage_', '_role_manage_'] });
    expect(m.main.filter((e) => e.label === T.nav.users)).toHaveLength(1);
  });
  it('turns navs without an underscore into custom entries with children', () => {
    const m = memberMenu('/kebun', {
      navs: [nav(1, 'produksi', 'Produksi', [nav(2, 'lini1', 'Lini 1')]), nav(3, '_x_', 'Sistem')],
      navs_root: [],
    });
    expect(m.main).toHaveLength(1);
    expect(m.main[0]).toMatchObject({
      label: 'Produksi',
      to: '/kebun/produksi',
      children: [{ label: 'Lini 1', to: '/kebun/lini1' }],
    });
    expect(flattenEntries(m.main).map((e) => e.to)).toEqual(['/kebun/produksi', '/kebun/lini1']);
  });
  it('redirects by default to the first granted entry', () => {
    expect(firstEntry(memberMenu('/k', { navs: [], navs_root: ['_device_manage_', '_task_list_'] }))?.to).toBe(
      '/k/_device_list_',
    );
    expect(firstEntry(memberMenu('/k', { navs: [], navs_root: ['_task_list_'] }))?.to).toBe('/k/_task_list_');
    expect(firstEntry(memberMenu('/k', { navs: [nav(1, 'a', 'A', [nav(2, 'b', 'B')])], navs_root: [] }))?.to).toBe(
      '/k/b',
    );
    expect(firstEntry(memberMenu('/k', { navs: [], navs_root: [] }))).toBeUndefined();
  });
  it('grants only the routes of the granted keys', () => {
    const granted = grantedRoutes(screenRoutes, ['_device_list_']);
    const keys = granted.map((r) => r.key);
    // the device reading screens, plus the principal's own refresh token page, which every principal has
    expect(keys).toContain('_device_list_');
    expect(keys).toContain('@token');
    for (const r of granted) expect(r.key === '@token' || r.grantedBy.includes('_device_list_')).toBe(true);
    // the wizard and the edit screens need _device_manage_
    const manageOnly = grantedRoutes(screenRoutes, ['_device_manage_']).filter((r) => !keys.includes(r.key));
    expect(manageOnly.length).toBeGreaterThan(0);
    expect(keys.some((k) => k.startsWith('_role_') || k.startsWith('_user_') || k.startsWith('_dashboard_'))).toBe(
      false,
    );
    const roleKeys = grantedRoutes(screenRoutes, ['_role_manage_']).map((r) => r.key);
    expect(roleKeys).toContain('_user_edit_/{id}');
    expect(roleKeys).not.toContain('@credentials');
  });
});

describe('route keys', () => {
  it('turns {param} segments into route parameters and back into addresses', () => {
    expect(routePath('_role_edit_/{id}')).toBe('_role_edit_/:id');
    expect(routeTo('/admin/kebun', '@user/password/{id}', { id: 4 })).toBe('/admin/kebun/@user/password/4');
  });
  it('lists every route key of the spec once', () => {
    const keys = screenRoutes.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of [
      '_dashboard_list_',
      '_dashboard_add_',
      '_dashboard_edit_/{id}',
      '_dashboard_conf_/{path}',
      '_role_list_',
      '_role_add_info_',
      '_role_add_access_',
      '_role_add_sort_',
      '_role_edit_/{id}',
      '_role_edit_sort_/{id}',
      '_user_list_',
      '_user_add_',
      '_user_edit_/{id}',
      '@user/password/{id}',
      '_device_list_',
      '_tag_list_',
      '_tag_add_',
      '_rule_list_',
      '_rule_add_',
      '_task_list_',
      '@credentials',
      '@credentials/create',
      '@credentials/update/{id}',
      '@about',
    ]) {
      expect(keys).toContain(k);
    }
  });
});
