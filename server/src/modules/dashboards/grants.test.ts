// The one dashboard rule: which dashboards a caller may view and the menu they see, cached per account until an
// access or dashboard change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUp, openDb } from '../../platform/db/sqlite.js';
import type { Caller } from '../../platform/http/mount.js';
import * as schema from '../../schema.js';
import { sqliteStore } from '../../platform/db/store.js';
import { roleOfAccount } from '../users/users.store.js';
import { roleSelection } from '../roles/roles.store.js';
import { createDashboardsStore } from './dashboards.store.js';
import { createDashboardGrants, type GrantReads } from './grants.js';

let handle: ReturnType<typeof openDb>;
const changes = { access: 0, dashboards: 0 };
let clock = 1_000_000;
let grants: ReturnType<typeof createDashboardGrants>;
let reads: GrantReads;
/** account reads made, to tell a cache hit from a read */
let accountReads = 0;
/** holds the next role read once it has its answer (a read under way while the test changes things) */
let hold: { taken: () => void; until: Promise<void> } | undefined;

const app = { id: 1, timezone: 'Asia/Jakarta' } as Caller['app'];
const tenant = { kind: 'tenant', app } as Caller;
const member = { kind: 'member', app, accountId: 10 } as Caller;
const apiKey = (navs: string[]) =>
  ({ kind: 'credentials', app, grants: { navs: new Set(navs), permissions: {} } }) as unknown as Caller;
const ids = (entries: { id: number; children: unknown[] }[]): unknown[] =>
  entries.map((e) => (e.children.length ? [e.id, ids(e.children as never)] : e.id));

beforeAll(() => {
  handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  const { sqlite } = handle;
  sqlite.pragma('foreign_keys = OFF');
  const dash = sqlite.prepare(
    'INSERT INTO dashboards (id, app_id, label, path, parent_id, sort, created_at) VALUES (?, ?, ?, ?, ?, ?, 0)',
  );
  // 1 Gedung ─ 2 Lantai 1 ─ 4 Panel; 3 Pompa (sorted first); 9 of another application
  dash.run(1, 1, 'Gedung', 'gedung', null, 1);
  dash.run(2, 1, 'Lantai 1', 'lantai-1', 1, 0);
  dash.run(3, 1, 'Pompa', 'pompa', null, 0);
  dash.run(4, 1, 'Panel', 'panel', 2, 0);
  dash.run(9, 2, 'Milik orang lain', 'lain', null, 0);
  sqlite
    .prepare(
      "INSERT INTO roles (id, app_id, name, descendant, created_at, updated_at) VALUES (5, 1, 'operator', 0, 0, 0)",
    )
    .run();
  const nav = sqlite.prepare('INSERT INTO role_navs (role_id, dashboard_id, sort) VALUES (5, ?, ?)');
  nav.run(2, 0); // the role's order: Lantai 1, then Pompa, then another application's dashboard
  nav.run(3, 1);
  nav.run(9, 2);
  sqlite
    .prepare(
      "INSERT INTO accounts (id, app_id, username, email, first, pass_hash, role_id, created_at) VALUES (10, 1, 'budi', 'budi@x.id', 'Budi', 'x', 5, 0)",
    )
    .run();
  const store = sqliteStore(sqlite, schema);
  reads = {
    dashboards: createDashboardsStore(store),
    roleOfAccount: (appId, accountId) => (accountReads++, roleOfAccount(store, appId, accountId)),
    roleSelection: async (appId, roleId) => {
      const role = await roleSelection(store, appId, roleId);
      const h = hold;
      hold = undefined;
      if (h) (h.taken(), await h.until);
      return role;
    },
  };
  grants = createDashboardGrants(reads, { now: () => clock, changes });
});
afterAll(() => handle?.close());

describe('dashboard grants (the one mayView and menu rule)', () => {
  it('lets a tenant view every dashboard of its application and shows it the whole tree', async () => {
    expect(await grants.mayView(tenant, 4)).toBe(true);
    expect(ids(await grants.menuOf(tenant))).toEqual([3, [1, [[2, [4]]]]]);
  });

  it("lets a member view exactly their role's selection and shows it in the role's order", async () => {
    const viewable = await Promise.all([1, 2, 3, 4, 9].map((id) => grants.mayView(member, id)));
    expect([1, 2, 3, 4, 9].filter((_, i) => viewable[i])).toEqual([2, 3]);
    expect(ids(await grants.menuOf(member))).toEqual([2, 3]);
  });

  it('lets a credentials pair view everything with "Kelola Dasboard" and shows it no menu', async () => {
    expect(await grants.mayView(apiKey(['_dashboard_manage_']), 4)).toBe(true);
    expect(await grants.mayView(apiKey([]), 4)).toBe(false);
    expect(await grants.menuOf(apiKey(['_dashboard_manage_']))).toEqual([]);
  });

  it('keeps a role change out until the next access change, then opens the descendants in the menu too', async () => {
    handle.sqlite.prepare('UPDATE roles SET descendant = 1 WHERE id = 5').run();
    expect(await grants.mayView(member, 4)).toBe(false);
    changes.access++;
    expect(await grants.mayView(member, 4)).toBe(true);
    expect(ids(await grants.menuOf(member))).toEqual([[2, [4]], 3]);
  });

  it('re-reads a change made outside the services within 2 s', async () => {
    handle.sqlite.prepare('DELETE FROM role_navs WHERE dashboard_id = 3').run();
    expect(await grants.mayView(member, 3)).toBe(true);
    clock += 2000;
    expect(await grants.mayView(member, 3)).toBe(false);
    expect(ids(await grants.menuOf(member))).toEqual([[2, [4]]]);
  });

  it('answers a cached account without a read, and a burst after a change with one read made after it', async () => {
    await grants.scopeOf(member);
    const before = accountReads;
    await grants.scopeOf(member);
    expect(accountReads).toBe(before);
    changes.access++;
    const burst = await Promise.all([grants.scopeOf(member), grants.scopeOf(member), grants.mayView(member, 2)]);
    expect(accountReads).toBe(before + 1);
    expect(burst[2]).toBe(true);
    // a change while a read is under way: the next call does not join it, and the entry it leaves is not trusted
    let release!: () => void;
    const taken = new Promise<void>((t) => (hold = { taken: t, until: new Promise((r) => (release = r)) }));
    changes.access++;
    const stale = grants.mayView(member, 2);
    await taken;
    handle.sqlite.prepare('DELETE FROM role_navs WHERE dashboard_id = 2').run();
    changes.access++;
    expect(await grants.mayView(member, 2)).toBe(false);
    release();
    expect(await stale).toBe(true);
    expect(await grants.mayView(member, 2)).toBe(false);
  });

  it('reads again for a caller right after its own write (reread), and gives an unknown account nothing', async () => {
    const before = accountReads;
    await grants.scopeOf(member, true);
    expect(accountReads).toBe(before + 1);
    const stranger = { kind: 'member', app, accountId: 99 } as Caller;
    expect(await grants.scopeOf(stranger)).toEqual(new Set());
    expect(await grants.menuOf(stranger)).toEqual([]);
  });

  it('answers scopeNow from memory only: undefined until the account is kept, and after an access change', async () => {
    expect(grants.scopeNow(tenant)).toBe('all');
    expect(grants.scopeNow(apiKey([]))).toEqual(new Set());
    changes.access++;
    expect(grants.scopeNow(member)).toBeUndefined();
    const kept = await grants.scopeOf(member);
    expect(grants.scopeNow(member)).toBe(kept);
    clock += 2000;
    expect(grants.scopeNow(member)).toBeUndefined();
    // the read it started is the one the next scopeOf joins
    const before = accountReads;
    expect(await grants.scopeOf(member)).toEqual(kept);
    expect(accountReads).toBe(before);
  });
});
