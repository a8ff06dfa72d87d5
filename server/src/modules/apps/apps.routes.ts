// Applications of a tenant: list, add, About, and the signed-in principal's menu.
import { SYS_NAVS, T, appsContract } from '@sentra/contracts';
import { fail, notFound } from '../../platform/http/errors.js';
import { implement, type Caller } from '../../platform/http/mount.js';
import type { AppsStore } from './apps.store.js';
import type { AppTenants } from './apps.reads.js';

/**
 * Domains the console's own paths use (root: /admin, /pages, /expire and the old redirected paths; under /admin:
 * login, registration, apps). An application there could never be opened, so they count as taken.
 */
export const RESERVED_DOMAINS: ReadonlySet<string> = new Set([
  'admin',
  'pages',
  'expire',
  'app',
  'apps',
  'lora_gates',
  'application',
  'applications',
  'login',
  'registration',
]);

/** Dashboard navigation of the menu; the dashboards and roles domains provide it. */
export type MenuNavs = (
  caller: Caller,
) => import('@sentra/contracts').NavEntry[] | Promise<import('@sentra/contracts').NavEntry[]>;

export const appsRoutes = (apps: AppsStore, menuNavs: MenuNavs = () => [], tenants?: Pick<AppTenants, 'added'>) =>
  implement(appsContract, {
    list: async ({ caller }) => ({ data: await apps.listOf(caller.tenantId) }),
    add: async ({ input, caller }) => {
      if (RESERVED_DOMAINS.has(input.domain) || (await apps.domainTaken(input.domain)))
        throw fail(-3, T.application.domainTaken);
      // another gateway (scale-out) may take the domain between the check and the insert: the unique index decides
      const row = await apps.create({
        tenantId: caller.tenantId,
        name: input.name,
        domain: input.domain,
        description: input.description || null,
        createdAt: Date.now(),
      });
      if (!row) throw fail(-3, T.application.domainTaken);
      tenants?.added(row.id, caller.tenantId);
      return { data: row };
    },
    getByDomain: async ({ input, caller }) => {
      const row = await apps.byDomain(input.domain);
      const visible = row && (caller.kind === 'tenant' ? row.tenantId === caller.tenantId : row.id === caller.app?.id);
      if (!row || !visible) throw notFound();
      const { tenantId: _t, ...data } = row;
      return { data };
    },
    menu: async ({ caller }) => ({
      navs: await menuNavs(caller),
      navs_root: caller.kind === 'tenant' ? [...SYS_NAVS] : SYS_NAVS.filter((n) => caller.grants?.navs.has(n)),
      app_name: caller.app!.name,
    }),
  });
