// Variable types and the dialogs' limits (spec 02 section 3 "Variable"; section 5 "Variables"; section 9).
export const VARIABLE_TYPES = ['str', 'int', 'obj', 'arr', 'func', 'device', 'filter'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/**
 * The names the 'Tambah Variabel Baru' type selector offers, in the spec's order ("Array, Integer, Object, String,
 * Function, Device"). Filter is offered only for the dashboard's global variables (see variableTypeChoices).
 */
export const VARIABLE_TYPE_NAMES: readonly { type: VariableType; label: string }[] = [
  { type: 'arr', label: 'Array' },
  { type: 'int', label: 'Integer' },
  { type: 'obj', label: 'Object' },
  { type: 'str', label: 'String' },
  { type: 'func', label: 'Function' },
  { type: 'device', label: 'Device' },
  { type: 'filter', label: 'Filter' },
];
export function variableTypeChoices(scope: 'global' | 'local') {
  return VARIABLE_TYPE_NAMES.filter((t) => scope === 'global' || t.type !== 'filter');
}

/** "Choosing 'func' prefixes the key with func_ (or sets func_a if the key is empty)." Live help: at least 6 characters. */
export const FUNC_PREFIX = 'func_';
export const FUNC_DEFAULT_KEY = 'func_a';
export const FUNC_KEY_MIN = 6;

/** "Variable list page size: 5 rows." */
export const VARIABLE_PAGE_SIZE = 5;

/** Query types an object variable may carry; the conditional ones require condition, true and false values. */
export const OBJECT_VARIABLE_QUERY_TYPES = ['condition', 'condition_bool', 'tags'] as const;
