// Dashboards for viewing, as the card calls, the card subscriptions and the web service read them: the stored
// conf_dashboard of the caller's application, validated with the contracts schema and kept parsed while its text is
// unchanged, and who may view it (the one rule, grants.ts). Both are read on every card call: with `changes`, a parsed
// dashboard and a caller's grants are trusted until the next dashboard (or access) change, re-checked against the
// database at least every few seconds.
import type Database from 'better-sqlite3';
import { Component, ConfDashboard } from '@sentra/contracts';
import { notFound } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from '../auth/access-changes.js';
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
  sqlite: Database.Database,
  opts: { grants: Pick<DashboardGrants, 'assert'>; now?: () => number; changes?: Pick<AccessChanges, 'dashboards'> },
) {
  const now = opts.now ?? Date.now;
  const changes = opts.changes;
  const grants = opts.grants;
  const byId = sqlite.prepare('SELECT conf_dashboard FROM dashboards WHERE id = ? AND app_id = ?').pluck();
  const cache = new Map<number, Cached>();

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

  /** the dashboard of the application as stored now (no access check: live recomputes of a room already joined) */
  function load(appId: number, id: number): DashboardView | null {
    const hit = cache.get(id);
    const at = now();
    if (hit && changes && hit.generation === changes.dashboards && at - hit.checkedAt < DASHBOARD_RECHECK_MS) {
      return hit.view.appId === appId ? hit.view : null;
    }
    const generation = changes?.dashboards ?? 0;
    const text = byId.get(id, appId) as string | undefined;
    if (text === undefined) return null;
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
    dashboard(caller: Caller, id: number): DashboardView {
      const appId = caller.app?.id;
      if (appId === undefined) throw notFound();
      const view = load(appId, id);
      if (!view) throw notFound();
      grants.assert(caller, id);
      return view;
    },
  };
}

export type DashboardViews = ReturnType<typeof createDashboardViews>;
