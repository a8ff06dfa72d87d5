// The choices of a dropdown selector (DROPDOWN_SELECTOR): which variable it sets (`model.config.variable`, else the
// card's key) and its options — `model.config.options` (texts, numbers or {label, value}), else the values of the
// variable when it is an array, else, for a device variable, every device having the variable's sensor/config/param.
import { DeviceVariable, type DeviceTree } from '@sentra/contracts';

export interface SelectorOption {
  label: string;
  value: unknown;
}

export interface SelectorConfig {
  variable: string;
  options: SelectorOption[];
  /** the variable is a device selection: options come from the device tree */
  device?: { sensor: string; config: string; param: string };
}

export function selectorConfig(
  key: string,
  model: Record<string, unknown> | undefined,
  vars: Record<string, unknown> | undefined,
): SelectorConfig {
  const cfg = (model?.config ?? {}) as { variable?: unknown; options?: unknown };
  const variable = typeof cfg.variable === 'string' && cfg.variable ? cfg.variable : key;
  const stored = vars?.[variable];
  let options: SelectorOption[] = [];
  const raw = Array.isArray(cfg.options) ? cfg.options : Array.isArray(stored) ? stored : [];
  options = raw.flatMap((o): SelectorOption[] => {
    if (typeof o === 'string' || typeof o === 'number' || typeof o === 'boolean')
      return [{ label: String(o), value: o }];
    if (o && typeof o === 'object' && 'value' in o)
      return [
        {
          label: String((o as { label?: unknown }).label ?? (o as { value: unknown }).value),
          value: (o as { value: unknown }).value,
        },
      ];
    return [];
  });
  const dev = DeviceVariable.safeParse(stored);
  return dev.success && options.length === 0
    ? { variable, options, device: { sensor: dev.data.sensor, config: dev.data.config, param: dev.data.param } }
    : { variable, options };
}

/** Device options for a device variable: devices whose tree has the sensor/config/param, labelled. */
export function deviceOptions(
  tree: DeviceTree,
  labels: Record<string, string>,
  want: { sensor: string; config: string; param: string },
): SelectorOption[] {
  return Object.entries(tree).flatMap(([id, sensors]) => {
    const has =
      sensors?.[want.sensor]?.[want.config] &&
      Object.prototype.hasOwnProperty.call(sensors[want.sensor]![want.config]!, want.param);
    return has
      ? [
          {
            label: labels[id] ?? id,
            value: {
              device_id: Number(id),
              sensor: want.sensor,
              config: want.config,
              param: want.param,
              _varType: 'device',
            },
          },
        ]
      : [];
  });
}

/** The option matching the current value (a device variable matches by device id). */
export function optionIndex(options: readonly SelectorOption[], current: unknown): number {
  const key = (v: unknown) =>
    v && typeof v === 'object' && 'device_id' in v
      ? `d:${String((v as { device_id: unknown }).device_id)}`
      : JSON.stringify(v);
  const k = key(current);
  return options.findIndex((o) => key(o.value) === k);
}
