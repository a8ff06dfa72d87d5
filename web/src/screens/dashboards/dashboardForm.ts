// The add/edit dashboard form without React (spec 02 sections 2, 5): its fields, the conf_dashboard it sends (an
// edit keeps the components and other stored fields), and where each schema issue shows.
import {
  AddDashboardInput,
  DASHBOARD_VERSION,
  DECIMALS_DEFAULT,
  REFRESH_AUTO,
  T,
  type DashboardRecord,
} from '@sentra/contracts';

export interface DashboardFormValues {
  label: string;
  desc: string;
  /** as typed; required, 0 or ≥ 500 */
  refresh: string;
  decimals: number;
  /** '' = root */
  parent: string;
  customUrl: string;
  /** the global variables as JSON text */
  variables: string;
}
export type DashboardFormField = keyof DashboardFormValues;
export type DashboardFormErrors = Partial<Record<DashboardFormField, string>>;

export const EMPTY_FORM: DashboardFormValues = {
  label: '',
  desc: '',
  refresh: String(REFRESH_AUTO),
  decimals: DECIMALS_DEFAULT,
  parent: '',
  customUrl: '',
  variables: '{}',
};

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export function formValuesOf(d: DashboardRecord): DashboardFormValues {
  const conf = obj(d.conf_dashboard);
  const refresh = obj(conf.config).refresh;
  const decimal = obj(conf.view).decimal;
  return {
    label: d.label,
    desc: d.desc,
    refresh: typeof refresh === 'number' ? String(refresh) : String(REFRESH_AUTO),
    decimals: typeof decimal === 'number' ? decimal : DECIMALS_DEFAULT,
    parent: d.parent === null ? '' : String(d.parent),
    customUrl: conf.type === 'custom_url' && typeof conf.custom_url === 'string' ? conf.custom_url : '',
    variables: JSON.stringify(obj(conf.var), null, 2),
  };
}

/** Which form field a schema issue belongs to. */
export function fieldOfPath(path: string): DashboardFormField | undefined {
  if (path === 'label' || path === 'desc' || path === 'parent') return path;
  if (path.startsWith('conf_dashboard.config')) return 'refresh';
  if (path.startsWith('conf_dashboard.view')) return 'decimals';
  if (path.startsWith('conf_dashboard.var')) return 'variables';
  if (path.startsWith('conf_dashboard.custom_url') || path === 'conf_dashboard.type') return 'customUrl';
  return undefined;
}

export type FormOutcome =
  | { ok: true; body: { label: string; desc: string; parent: number | null; conf_dashboard: Record<string, unknown> } }
  | { ok: false; errors: DashboardFormErrors };

/** The request body, or the errors per field ("Refresh rate tidak boleh kosong!", invalid JSON, the schema's rules). */
export function formBody(values: DashboardFormValues, stored?: DashboardRecord): FormOutcome {
  const errors: DashboardFormErrors = {};
  if (values.label.trim() === '') errors.label = T.dashboards.form.nameRequired;
  if (values.refresh.trim() === '') errors.refresh = T.dashboards.form.refreshRequired;
  let vars: unknown;
  try {
    vars = JSON.parse(values.variables.trim() || '{}');
    if (typeof vars !== 'object' || vars === null || Array.isArray(vars))
      errors.variables = T.dashboards.screens.variablesInvalid;
  } catch {
    errors.variables = T.dashboards.screens.variablesInvalid;
  }
  if (Object.keys(errors).length) return { ok: false, errors };

  const base = obj(stored?.conf_dashboard);
  const url = values.customUrl.trim();
  const conf: Record<string, unknown> = {
    ...base,
    version: DASHBOARD_VERSION,
    type: url ? 'custom_url' : 'normal',
    custom_url: url,
    view: { ...obj(base.view), decimal: values.decimals },
    config: { ...obj(base.config), refresh: Number(values.refresh) },
    var: vars,
    dashboard: obj(base.dashboard),
  };
  const body = {
    label: values.label,
    desc: values.desc,
    parent: values.parent ? Number(values.parent) : null,
    conf_dashboard: conf,
  };
  const parsed = AddDashboardInput.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path.map(String).join('.'));
      if (field && !errors[field]) errors[field] = issue.message;
    }
    // an issue in a stored component is not a form field: it shows on the name's line rather than vanish
    if (!Object.keys(errors).length)
      errors.label = `${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`;
    return { ok: false, errors };
  }
  return { ok: true, body: { ...body, label: parsed.data.label } };
}
