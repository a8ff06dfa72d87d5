// The dashboards as the card calls view them: viewNow answers from memory exactly when `dashboard` would (trusted,
// the caller's grants kept and allowing it), else undefined for the caller to ask `dashboard`.
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../platform/http/mount.js';
import type { DashboardScope } from './grants.js';
import { createDashboardViews, DASHBOARD_RECHECK_MS } from './views.js';

const conf = JSON.stringify({ version: '2', config: { refresh: 0 }, dashboard: {} });

function setup() {
  const changes = { access: 0, dashboards: 0 };
  let clock = 1_000_000;
  /** what the grants keep in memory for the member (undefined: not kept, a read would be needed) */
  let memberScope: DashboardScope | undefined = new Set([1]);
  const scopeNow = (caller: Caller) => (caller.kind === 'tenant' ? 'all' : memberScope);
  const views = createDashboardViews(
    { confText: async (appId: number, id: number) => (appId === 1 && id <= 2 ? conf : undefined) },
    {
      now: () => clock,
      changes,
      grants: {
        scopeNow,
        within: (scope, id) => scope === 'all' || scope.has(id),
        assert: async () => undefined,
      },
    },
  );
  return {
    views,
    changes,
    tick: (ms: number) => (clock += ms),
    setScope: (s: DashboardScope | undefined) => (memberScope = s),
  };
}

const app = { id: 1 } as Caller['app'];
const tenant = { kind: 'tenant', app } as Caller;
const member = { kind: 'member', app, accountId: 7 } as Caller;
const stranger = { kind: 'tenant', app: { id: 2 } } as Caller;

describe('dashboard views from memory (viewNow)', () => {
  it('answers a dashboard read before while it is trusted, for a caller whose grants allow it', async () => {
    const { views, changes, tick, setScope } = setup();
    expect(views.viewNow(tenant, 1)).toBeUndefined();
    const view = await views.dashboard(tenant, 1);
    expect(views.viewNow(tenant, 1)).toBe(view);
    expect(views.viewNow(member, 1)).toBe(view);
    // another application's caller, a dashboard outside the grants, grants not kept: `dashboard` decides
    expect(views.viewNow(stranger, 1)).toBeUndefined();
    await views.dashboard(tenant, 2);
    expect(views.viewNow(member, 2)).toBeUndefined();
    setScope(undefined);
    expect(views.viewNow(member, 1)).toBeUndefined();
    // no longer trusted: after a dashboard change, and after the recheck time
    changes.dashboards++;
    expect(views.viewNow(tenant, 1)).toBeUndefined();
    await views.dashboard(tenant, 1);
    expect(views.viewNow(tenant, 1)).toBe(view);
    tick(DASHBOARD_RECHECK_MS);
    expect(views.viewNow(tenant, 1)).toBeUndefined();
  });
});
