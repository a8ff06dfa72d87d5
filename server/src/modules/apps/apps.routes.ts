// Applications of a tenant: list, add, About, and the signed-in principal's menu.
import { asc, eq } from 'drizzle-orm';
import { SYS_NAVS, T, appsContract } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { fail, notFound } from '../../platform/http/errors.js';
import { implement, type Caller } from '../../platform/http/mount.js';
import { applications } from './apps.table.js';

const info = {
  id: applications.id,
  name: applications.name,
  domain: applications.domain,
  description: applications.description,
  created_time: applications.createdAt,
};

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

export const appsRoutes = (db: Db, menuNavs: MenuNavs = () => []) =>
  implement(appsContract, {
    list: ({ caller }) => ({
      data: db
        .select({
          id: applications.id,
          name: applications.name,
          domain: applications.domain,
          description: applications.description,
        })
        .from(applications)
        .where(eq(applications.tenantId, caller.tenantId))
        .orderBy(asc(applications.id))
        .all(),
    }),
    add: ({ input, caller }) => {
      if (
        RESERVED_DOMAINS.has(input.domain) ||
        db.select({ id: applications.id }).from(applications).where(eq(applications.domain, input.domain)).get()
      ) {
        throw fail(-3, T.application.domainTaken);
      }
      // another gateway (scale-out) may take the domain between the check and the insert: the unique index decides
      const row = db
        .insert(applications)
        .values({
          tenantId: caller.tenantId,
          name: input.name,
          domain: input.domain,
          description: input.description || null,
          createdAt: Date.now(),
        })
        .onConflictDoNothing()
        .returning(info)
        .get();
      if (!row) throw fail(-3, T.application.domainTaken);
      return { data: row };
    },
    getByDomain: ({ input, caller }) => {
      const row = db
        .select({ ...info, tenantId: applications.tenantId })
        .from(applications)
        .where(eq(applications.domain, input.domain))
        .get();
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
