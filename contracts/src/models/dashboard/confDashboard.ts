// conf_dashboard version "2" (spec 02 section 3): the whole stored dashboard, validated by the server on every save
// (an invalid one answers -10 with the path of the error) and by the web before sending.
import { z } from 'zod';
import { T } from '../../text/id.js';
import { DASHBOARD_VERSION } from '../../catalogue/limits.js';
import { Component, Decimals, RefreshRate } from './component.js';
import { VariableMap } from './variables.js';

const t = T.dashboards;

export const DASHBOARD_KINDS = ['normal', 'custom_url'] as const;

export const ConfDashboard = z
  .strictObject({
    version: z.literal(DASHBOARD_VERSION, { error: T.common.invalidInput }),
    /** absent means normal */
    type: z.enum(DASHBOARD_KINDS, { error: T.common.invalidInput }).optional(),
    /** '' stands for none (normal dashboards) */
    custom_url: z.union([z.literal(''), z.url({ protocol: /^https?$/ })], { error: T.common.invalidInput }).optional(),
    view: z.looseObject({ decimal: Decimals.optional() }).optional(),
    config: z.strictObject({ refresh: RefreshRate }, { error: t.form.refreshRequired }),
    var: VariableMap.optional(),
    dashboard: z.record(z.string(), Component).optional(),
  })
  .superRefine((d, ctx) => {
    if (d.type === 'custom_url' && !d.custom_url)
      ctx.addIssue({ code: 'custom', path: ['custom_url'], message: T.common.required });
    for (const [key, component] of Object.entries(d.dashboard ?? {})) {
      if (component.key !== key)
        ctx.addIssue({ code: 'custom', path: ['dashboard', key, 'key'], message: T.common.invalidInput });
    }
  });
export type ConfDashboard = z.output<typeof ConfDashboard>;
export type ConfDashboardInput = z.input<typeof ConfDashboard>;

/** The add/edit form's own fields beside conf_dashboard ("Nama dashboard tidak boleh kosong"). */
export const DashboardName = z
  .string({ error: t.form.nameRequired })
  .refine((s) => s.trim() !== '', t.form.nameRequired);

/** Where in a dashboard the first issue is, as the envelope's `errors[].path` writes it (e.g. `dashboard.c1.w`). */
export function issuePath(issue: { path: readonly PropertyKey[] }): string {
  return issue.path.map(String).join('.');
}

/** Auto refresh (spec 02 "Refresh and decimals"): 1000 ms per component when a dashboard has more than 5, else none. */
export const AUTO_REFRESH_MS_PER_COMPONENT = 1000;
export const AUTO_REFRESH_MIN_COMPONENTS = 5;

/** The refresh a dashboard runs with: its own rate, or for 0 ("auto") the default by component count; 0 = none. */
export function dashboardRefreshMs(conf: {
  config?: { refresh?: number } | null;
  dashboard?: Record<string, unknown> | null;
}): number {
  const own = conf.config?.refresh ?? 0;
  if (own > 0) return own;
  const components = Object.keys(conf.dashboard ?? {}).length;
  return components > AUTO_REFRESH_MIN_COMPONENTS ? AUTO_REFRESH_MS_PER_COMPONENT * components : 0;
}
