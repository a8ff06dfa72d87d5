// The 'Daftar Variabel' dialog without React (spec 02 section 2 "Variable dialogs", section 4 "Delete variable"):
// global and local variables 5 rows a page, copying a key, and deleting with a confirmation that reopens the list.
import { T, VARIABLE_PAGE_SIZE, type VariableValue } from '@sentra/contracts';

type VariableSet = Record<string, VariableValue>;
export type VariableScope = 'global' | 'local';

export interface VariableListState {
  open: boolean;
  /** zero-based */
  page: number;
  /** "The list shows the Aksi (delete) column only when actions are allowed (default yes)." */
  actions: boolean;
  variables: { global: VariableSet; local: VariableSet };
  /** the variable whose deletion waits for 'Konfirmasi Hapus Variabel' */
  confirmingDelete?: { scope: VariableScope; key: string };
  /** the notice to show, e.g. 'Variable key sudah di-copy ke clipboard' */
  notice?: string;
}

export type VariableListEvent =
  | { type: 'open'; variables: { global?: VariableSet; local?: VariableSet }; actions?: boolean }
  | { type: 'close' }
  | { type: 'changePage'; page: number }
  | { type: 'keyCopied'; key: string }
  | { type: 'askDelete'; scope: VariableScope; key: string }
  | { type: 'cancelDelete' }
  | { type: 'confirmDelete' };

export function initialVariableList(): VariableListState {
  return { open: false, page: 0, actions: true, variables: { global: {}, local: {} } };
}

export interface VariableRow {
  scope: VariableScope;
  key: string;
  value: VariableValue;
}
export function variableRows(state: VariableListState): VariableRow[] {
  const rows = (scope: VariableScope) =>
    Object.entries(state.variables[scope]).map(([key, value]) => ({ scope, key, value }));
  return [...rows('global'), ...rows('local')];
}
export function pageCount(state: VariableListState): number {
  return Math.max(1, Math.ceil(variableRows(state).length / VARIABLE_PAGE_SIZE));
}
/** The rows of the current page: 5 a page. */
export function pageRows(state: VariableListState): VariableRow[] {
  return variableRows(state).slice(state.page * VARIABLE_PAGE_SIZE, (state.page + 1) * VARIABLE_PAGE_SIZE);
}

export function variableListReducer(state: VariableListState, event: VariableListEvent): VariableListState {
  switch (event.type) {
    case 'open':
      return {
        ...initialVariableList(),
        open: true,
        actions: event.actions ?? true,
        variables: { global: { ...event.variables.global }, local: { ...event.variables.local } },
      };
    case 'close':
      return { ...state, open: false, notice: undefined };
    case 'changePage':
      return { ...state, page: Math.min(Math.max(0, event.page), pageCount(state) - 1) };
    case 'keyCopied':
      return { ...state, notice: T.dashboards.variables.copied };
    case 'askDelete':
      // "Delete variable: closes the list and asks confirmation."
      if (!state.actions) return state;
      return { ...state, open: false, confirmingDelete: { scope: event.scope, key: event.key } };
    case 'cancelDelete':
      // "On cancel the list reopens."
      return { ...state, open: true, confirmingDelete: undefined };
    case 'confirmDelete': {
      if (!state.confirmingDelete) return state;
      const { scope, key } = state.confirmingDelete;
      const { [key]: _deleted, ...rest } = state.variables[scope];
      const next = { ...state, confirmingDelete: undefined, variables: { ...state.variables, [scope]: rest } };
      // "After deleting, the page is adjusted, and the list closes if both variable sets are empty."
      const rows = variableRows(next).length;
      return { ...next, page: Math.min(state.page, pageCount(next) - 1), open: rows > 0 };
    }
  }
}
