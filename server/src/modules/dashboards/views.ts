// Dashboards for viewing, as the card calls, the card subscriptions and the web service read them: the stored
// conf_dashboard of the caller's application, validated with the contracts schema and kept parsed while its text is
// unchanged, and who may view it (the one rule, grants.ts). Both are read on every card call: with `changes`, a parsed
// dashboard and a caller's grants are trusted until the next dashboard (or access) change, re-checked against the
// database at least every few seconds. A trusted cached dashboard is answered synchronously (the live card push reads
// one per recompute); only a read of the store is awaited.
import { Component, ConfDashboard } from '@sentra/contracts';
import { notFound } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
import type { DashboardsStore } from './dashboards.store.js';
import type { DashboardGrants } from './grants.js';

export interface DashboardView {
  id: number;
  appId: number;
  conf: ConfDashboard;
  /** components that fail the schema on their own (the rest of the dashboard still works) */
  broken: Set<string>;
}

interface Cached {
  text: string;
  view: DashboardView;
  /** the dashboards generation it was read at, and when: trusted without a read while both hold */
  generation: number;
  checkedAt: number;
}

/** how long a parsed dashboard is trusted without comparing its stored text (writes outside the service) */
export const DASHBOARD_RECHECK_MS = 5000;

export function createDashboardViews(
  dashboards: Pick<DashboardsStore, 'confText'>,
  opts: {
    grants: Pick<DashboardGrants, 'assert' | 'scopeNow' | 'within'>;
    now?: () => number;
    changes?: Pick<AccessChanges, 'dashboards'>;
  },
) {
  const now = opts.now ?? Date.now;
  const changes = opts.changes;
  const grants = opts.grants;
  const cache = new Map<number, Cached>();
  const reading = new Map<string, { generation: number; view: Promise<DashboardView | null> }>();

  function parse(id: number, appId: number, text: string): DashboardView {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = {};
    }
    const whole = ConfDashboard.safeParse(raw);
    if (whole.success) return { id, appId, conf: whole.data, broken: new Set() };
    // keep every component that is valid on its own: one broken card does not blank the dashboard
    const r = (raw ?? {}) as Record<string, unknown>;
    const dashboard: Record<string, Component> = {};
    const broken = new Set<string>();
    for (const [key, c] of Object.entries((r.dashboard as Record<string, unknown>) ?? {})) {
      const p = Component.safeParse(c);
      if (p.success) dashboard[key] = p.data;
      else broken.add(key);
    }
    const conf = {
      version: '2',
      config: { refresh: 0 },
      ...(r.view ? { view: r.view } : {}),
      var: {},
      dashboard,
    } as ConfDashboard;
    return { id, appId, conf, broken };
  }

  /**
   * The dashboard of the application as stored now (no access check: live recomputes of a room already joined):
   * synchronously while the cached one is trusted, else once the store has answered.
   */
  function load(appId: number, id: number): DashboardView | null | Promise<DashboardView | null> {
    const hit = trusted(id);
    if (hit) return hit.view.appId === appId ? hit.view : null;
    // the cards of a live dashboard recomputed together wait for one read (made after the last change)
    const generation = changes?.dashboards ?? 0;
    const key = `${appId}:${id}`;
    const pending = reading.get(key);
    if (pending && pending.generation === generation) return pending.view;
    const view = read(appId, id, generation).finally(() => {
      if (reading.get(key)?.view === view) reading.delete(key);
    });
    reading.set(key, { generation, view });
    return view;
  }

  /** the cached dashboard `id` while it is trusted without a read */
  function trusted(id: number): Cached | undefined {
    const hit = cache.get(id);
    return hit && changes && hit.generation === changes.dashboards && now() - hit.checkedAt < DASHBOARD_RECHECK_MS
      ? hit
      : undefined;
  }

  /** `generation`: the one before the read (a change made while it runs leaves the entry to be checked again) */
  async function read(appId: number, id: number, generation: number): Promise<DashboardView | null> {
    const at = now();
    const text = await dashboards.confText(appId, id);
    if (text === undefined) return null;
    const hit = cache.get(id);
    if (hit && hit.text === text && hit.view.appId === appId) {
      hit.generation = generation;
      hit.checkedAt = at;
      return hit.view;
    }
    const view = parse(id, appId, text);
    if (cache.size > 2000) cache.clear();
    cache.set(id, { text, view, generation, checkedAt: at });
    return view;
  }

  return {
    load,
    /** The caller's dashboard; another application's (or an unknown) id is 404, a dashboard outside the caller's grants 403. */
    async dashboard(caller: Caller, id: number): Promise<DashboardView> {
      const appId = caller.app?.id;
      if (appId === undefined) throw notFound();
      const view = await load(appId, id);
      if (!view) throw notFound();
      await grants.assert(caller, id);
      return view;
    },
    /**
     * The caller's dashboard when `dashboard` would answer it from memory (trusted, the caller's grants kept, the
     * caller may view it), else undefined: the caller then asks `dashboard`, which reads or refuses.
     */
    viewNow(caller: Caller, id: number): DashboardView | undefined {
      const appId = caller.app?.id;
      const view = appId === undefined ? undefined : trusted(id)?.view;
      if (!view || view.appId !== appId) return undefined;
      const scope = grants.scopeNow(caller);
      return scope !== undefined && grants.within(scope, id) ? view : undefined;
    },
  };
}

export type DashboardViews = ReturnType<typeof createDashboardViews>;
