// Dashboard grants on every path (issue 23 item 3): a member with only role/user management cannot grant itself a
// dashboard (editing its own role, or adding a role and a user), and an application user holding "Kelola Dasboard"
// lists, views, queries, subscribes to, edits and deletes only the dashboards its role opens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARD_LIVE,
  Header,
  cardsContract,
  dashboardsContract,
  navsContract,
  rolesContract,
  usersContract,
} from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { memberWithRole, tenantWithApp, unique } from './fixtures.js';
import { ask, openSocket } from '../src/platform/realtime/testing/client.js';

let gw: Running;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw.stop());

type Owner = Awaited<ReturnType<typeof tenantWithApp>>;
const conf = (dashboard: Record<string, unknown> = {}) => ({
  version: '2',
  config: { refresh: 0 },
  var: {},
  dashboard,
});
const textCard = { key: 'judul', cat: 'SINGLE_VALUE_CARD', x: 0, y: 0, w: 1, h: 1 };

async function addDashboard(o: Owner, label: string, more: Record<string, unknown> = {}): Promise<number> {
  const r = await call(
    gw.url,
    dashboardsContract.add,
    { label, conf_dashboard: conf(), ...more },
    { tenant: o.tenant, domain: o.domain },
  );
  expect(r.body.response_result).toBe(0);
  return r.body.id as number;
}

/** An application with a granted dashboard (and its child) and a hidden one. */
async function appWithDashboards() {
  const o = await tenantWithApp(gw.url);
  const granted = await addDashboard(o, unique('Diberikan'), { conf_dashboard: conf({ judul: textCard }) });
  const child = await addDashboard(o, unique('Turunan'), { parent: granted });
  const hidden = await addDashboard(o, unique('Rahasia'), { conf_dashboard: conf({ judul: textCard }) });
  return { o, granted, child, hidden };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const forbidden = (r: { status: number; body: Record<string, any> }) => ({
  status: r.status,
  code: r.body.response_result,
});
const FORBIDDEN = { status: 403, code: -13 };

describe('a member with only _role_manage_ cannot raise itself (issue 23 item 3)', () => {
  it('refuses editing its own role to grant a dashboard it does not hold, and cannot then read it', async () => {
    const { o, granted, hidden } = await appWithDashboards();
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_role_manage_'], navs: [granted] });
    const auth = { member: m.member, domain: o.domain };
    const raise = await call(gw.url, rolesContract.edit, { id: m.roleId, navs: [granted, hidden] }, auth);
    expect(forbidden(raise)).toEqual(FORBIDDEN);
    // nor by switching the role to "descendant" (it would open the granted dashboard's child)
    expect(
      forbidden(await call(gw.url, rolesContract.edit, { id: m.roleId, descendant: true, navs: [granted] }, auth)),
    ).toEqual(FORBIDDEN);
    const role = await call(gw.url, rolesContract.get, { id: m.roleId }, { tenant: o.tenant, domain: o.domain });
    expect(role.body.data).toMatchObject({ navs: [granted], descendant: false });
    expect(forbidden(await call(gw.url, dashboardsContract.view, { id: hidden }, auth))).toEqual(FORBIDDEN);
    // within its own grants the edit goes through
    expect((await call(gw.url, rolesContract.edit, { id: m.roleId, navs: [] }, auth)).body.response_result).toBe(0);
  });

  it('refuses adding a role with a dashboard it does not hold, and a user with a role that has one', async () => {
    const { o, granted, hidden } = await appWithDashboards();
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_role_manage_'], navs: [granted] });
    const auth = { member: m.member, domain: o.domain };
    const role = (navs: number[], descendant = false) => ({
      name: unique('peran'),
      sys_navs: [],
      permissions: {},
      navs,
      descendant,
    });
    expect(forbidden(await call(gw.url, rolesContract.add, role([hidden]), auth))).toEqual(FORBIDDEN);
    expect(forbidden(await call(gw.url, rolesContract.add, role([granted], true), auth))).toEqual(FORBIDDEN);
    expect((await call(gw.url, rolesContract.add, role([granted]), auth)).body.response_result).toBe(0);

    // a role the tenant made with the hidden dashboard cannot be given to a new user, nor to an existing one
    const wide = await call(gw.url, rolesContract.add, role([hidden]), { tenant: o.tenant, domain: o.domain });
    const username = unique('usr');
    const user = {
      username,
      first: 'Sekutu',
      email: `${username}@contoh.id`,
      pass: 'sandi1234',
      passv: 'sandi1234',
      role_id: wide.body.data.id,
      email_verification: false,
    };
    expect(forbidden(await call(gw.url, usersContract.add, user, auth))).toEqual(FORBIDDEN);
    expect(
      forbidden(
        await call(
          gw.url,
          usersContract.edit,
          { id: m.userId, first: 'Rina', email: `${m.username}@contoh.id`, role_id: wide.body.data.id },
          auth,
        ),
      ),
    ).toEqual(FORBIDDEN);
    // nor may the member edit or remove that role
    expect(forbidden(await call(gw.url, rolesContract.edit, { id: wide.body.data.id, navs: [] }, auth))).toEqual(
      FORBIDDEN,
    );
    expect(forbidden(await call(gw.url, rolesContract.remove, { id: wide.body.data.id }, auth))).toEqual(FORBIDDEN);
  });

  it('lists only its own dashboards for the role screens', async () => {
    const { o, granted, child, hidden } = await appWithDashboards();
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_role_manage_'], navs: [child] });
    const list = await call(gw.url, navsContract.detail, {}, { member: m.member, domain: o.domain });
    expect(list.body.navs.map((n: { id: number }) => n.id)).toEqual([child]);
    expect(list.body.navs_root_obj).toEqual([expect.objectContaining({ id: child, children: [] })]);
    const all = await call(gw.url, navsContract.list, {}, { tenant: o.tenant, domain: o.domain });
    expect(all.body.navs.map((n: { id: number }) => n.id)).toEqual(expect.arrayContaining([granted, child, hidden]));
  });
});

describe('"Kelola Dasboard" manages the granted dashboards only', () => {
  it('lists, reads, edits and deletes the granted dashboards and is refused the others with 403 -13', async () => {
    const { o, granted, child, hidden } = await appWithDashboards();
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_dashboard_manage_'], navs: [granted], descendant: true });
    const auth = { member: m.member, domain: o.domain };
    const listed = await call(gw.url, navsContract.list, {}, auth);
    expect(listed.body.navs.map((n: { id: number }) => n.id).sort()).toEqual([granted, child].sort());

    for (const [def, input] of [
      [dashboardsContract.get, { id: hidden }],
      [dashboardsContract.dashboard, { id: hidden }],
      [dashboardsContract.view, { id: hidden }],
      [dashboardsContract.listNin, { id: hidden }],
      [dashboardsContract.edit, { id: hidden, label: 'Diambil' }],
      [dashboardsContract.removeComponent, { id: hidden, dashboard_id: 'judul' }],
      [dashboardsContract.remove, { id: hidden }],
      // nor may a granted dashboard move under a hidden one, or a new one be added there
      [dashboardsContract.edit, { id: child, label: 'Pindah', parent: hidden }],
      [dashboardsContract.add, { label: 'Di bawah rahasia', conf_dashboard: conf(), parent: hidden }],
    ] as const) {
      expect({ path: def.path, ...forbidden(await call(gw.url, def, input, auth)) }).toEqual({
        path: def.path,
        ...FORBIDDEN,
      });
    }
    const untouched = await call(
      gw.url,
      dashboardsContract.get,
      { id: hidden },
      { tenant: o.tenant, domain: o.domain },
    );
    expect(untouched.body.data.conf_dashboard.dashboard).toHaveProperty('judul');

    expect((await call(gw.url, dashboardsContract.get, { id: child }, auth)).body.response_result).toBe(0);
    expect(
      (await call(gw.url, dashboardsContract.listNin, { id: child }, auth)).body.navs.map((n: { id: number }) => n.id),
    ).toEqual([granted]);
    expect(
      (await call(gw.url, dashboardsContract.edit, { id: child, label: 'Turunan baru' }, auth)).body.response_result,
    ).toBe(0);
    expect((await call(gw.url, dashboardsContract.remove, { id: child }, auth)).body.response_result).toBe(0);
  });

  it('keeps a dashboard it creates: the new dashboard joins its role', async () => {
    const { o, granted, hidden } = await appWithDashboards();
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_dashboard_manage_'], navs: [granted] });
    const auth = { member: m.member, domain: o.domain };
    const added = await call(gw.url, dashboardsContract.add, { label: unique('Baru'), conf_dashboard: conf() }, auth);
    expect(added.body.response_result).toBe(0);
    expect((await call(gw.url, dashboardsContract.view, { id: added.body.id }, auth)).status).toBe(200);
    const role = await call(gw.url, rolesContract.get, { id: m.roleId }, { tenant: o.tenant, domain: o.domain });
    expect(role.body.data.navs).toEqual([granted, added.body.id]);
    expect(forbidden(await call(gw.url, dashboardsContract.view, { id: hidden }, auth))).toEqual(FORBIDDEN);
  });

  it('leaves the role as it is when the new dashboard is below one its "descendant" role opens', async () => {
    const { o, granted } = await appWithDashboards();
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_dashboard_manage_'], navs: [granted], descendant: true });
    const auth = { member: m.member, domain: o.domain };
    const added = await call(
      gw.url,
      dashboardsContract.add,
      { label: unique('Anak'), conf_dashboard: conf(), parent: granted },
      auth,
    );
    expect((await call(gw.url, dashboardsContract.view, { id: added.body.id }, auth)).status).toBe(200);
    const role = await call(gw.url, rolesContract.get, { id: m.roleId }, { tenant: o.tenant, domain: o.domain });
    expect(role.body.data.navs).toEqual([granted]);
  });

  it('queries cards and subscribes to live cards of granted dashboards only', async () => {
    const { o, granted, hidden } = await appWithDashboards();
    const m = await memberWithRole(gw.url, o, { sys_navs: ['_dashboard_manage_'], navs: [granted] });
    const auth = { member: m.member, domain: o.domain };
    expect((await call(gw.url, cardsContract.get, { dashboardId: granted, componentKey: 'judul' }, auth)).status).toBe(
      200,
    );
    expect(
      forbidden(await call(gw.url, cardsContract.get, { dashboardId: hidden, componentKey: 'judul' }, auth)),
    ).toEqual(FORBIDDEN);

    const { socket, refusal } = await openSocket(gw.url, {
      [Header.accountId]: String(m.member.id),
      [Header.accountToken]: m.member.token,
      [Header.appDomain]: o.domain,
    });
    if (!socket) throw new Error(JSON.stringify(refusal));
    try {
      const ok = await ask(socket, 'subscribe', { channel: CARD_LIVE.channel, params: { dashboard_id: granted } });
      expect(ok.response_result).toBe(0);
      const refused = await ask(socket, 'subscribe', { channel: CARD_LIVE.channel, params: { dashboard_id: hidden } });
      expect(refused.response_result).toBe(-13);
      // the tenant takes the dashboard out of the role: the live subscription ends with it
      const emptied = new Promise<string>((resolve) =>
        gw.app.realtime.onRoomEmpty((room) => room === ok.room && resolve(room)),
      );
      const edit = await call(
        gw.url,
        rolesContract.edit,
        { id: m.roleId, navs: [] },
        { tenant: o.tenant, domain: o.domain },
      );
      expect(edit.body.response_result).toBe(0);
      expect(await Promise.race([emptied, sleep(3000).then(() => 'still subscribed')])).toBe(ok.room);
    } finally {
      socket.close();
    }
  });
});
