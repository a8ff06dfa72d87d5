// The manual component form without React (spec 02 sections 2 "Add component manually", "Manual edit (JSON)", 5):
// key required and ≤ 30 characters, configuration a JSON object; the component it saves into conf_dashboard.
import { COMPONENT_KEY_MAX, T } from '@sentra/contracts';
import { componentsOf } from './gridLayout.js';

const c = T.dashboards.component;

export interface ManualValues {
  key: string;
  config: string;
}
export type ManualErrors = Partial<Record<keyof ManualValues, string>>;

/** The JSON a new component starts from: a single value card under the existing ones. */
export function newComponentConfig(conf: Record<string, unknown>): string {
  const bottom = componentsOf(conf).reduce((y, comp) => Math.max(y, comp.y + comp.h * 2), 0);
  return JSON.stringify(
    {
      cat: 'SINGLE_VALUE_CARD',
      x: 0,
      y: bottom,
      w: 1,
      h: 1,
      config: { refresh: 0 },
      view: { title: 'Nilai', decimal: 2 },
    },
    null,
    2,
  );
}

/** A stored component as the form shows it: everything but its key. */
export function configText(component: Record<string, unknown>): string {
  const { key: _key, ...rest } = component;
  return JSON.stringify(rest, null, 2);
}

export type ManualOutcome =
  { ok: true; key: string; component: Record<string, unknown> } | { ok: false; errors: ManualErrors };

export function manualComponent(values: ManualValues): ManualOutcome {
  const errors: ManualErrors = {};
  const key = values.key.trim();
  if (!key) errors.key = c.manualKeyRequired;
  else if (key.length > COMPONENT_KEY_MAX) errors.key = T.common.max(COMPONENT_KEY_MAX);
  let parsed: unknown;
  try {
    parsed = JSON.parse(values.config);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) errors.config = c.invalidJson;
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, key, component: { ...(parsed as Record<string, unknown>), key } };
}

/** conf_dashboard with `component` under its key (replacing one with the same key). */
export function withComponent(
  conf: Record<string, unknown>,
  key: string,
  component: Record<string, unknown>,
): Record<string, unknown> {
  const cards =
    typeof conf.dashboard === 'object' && conf.dashboard !== null ? (conf.dashboard as Record<string, unknown>) : {};
  return { ...conf, dashboard: { ...cards, [key]: component } };
}
