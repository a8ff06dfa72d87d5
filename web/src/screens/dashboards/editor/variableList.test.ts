import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import {
  initialVariableList,
  pageCount,
  pageRows,
  variableListReducer,
  type VariableListEvent,
} from './variableList.js';

const many = (n: number, prefix: string) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
const list = (events: VariableListEvent[], global = many(3, 'g'), local = many(3, 'l'), actions?: boolean) =>
  events.reduce(
    variableListReducer,
    variableListReducer(initialVariableList(), { type: 'open', variables: { global, local }, actions }),
  );

describe("'Daftar Variabel'", () => {
  it('shows 5 rows per page, global then local variables', () => {
    const state = list([]);
    expect(pageCount(state)).toBe(2);
    expect(pageRows(state).map((r) => r.key)).toEqual(['g0', 'g1', 'g2', 'l0', 'l1']);
    expect(pageRows(list([{ type: 'changePage', page: 1 }])).map((r) => r.key)).toEqual(['l2']);
  });
  it(`tells "${T.dashboards.variables.copied}" when a key is copied`, () => {
    expect(list([{ type: 'keyCopied', key: 'g0' }]).notice).toBe('Variable key sudah di-copy ke clipboard');
  });
  it('shows the Aksi column only when actions are allowed (default yes)', () => {
    expect(list([]).actions).toBe(true);
    const readOnly = list([{ type: 'askDelete', scope: 'global', key: 'g0' }], undefined, undefined, false);
    expect(readOnly.actions).toBe(false);
    expect(readOnly.confirmingDelete).toBeUndefined();
  });
  it('closes the list and asks confirmation to delete a variable', () => {
    const state = list([{ type: 'askDelete', scope: 'local', key: 'l1' }]);
    expect(state).toMatchObject({ open: false, confirmingDelete: { scope: 'local', key: 'l1' } });
  });
  it('reopens the list when the deletion is cancelled', () => {
    const state = list([{ type: 'askDelete', scope: 'local', key: 'l1' }, { type: 'cancelDelete' }]);
    expect(state).toMatchObject({ open: true, confirmingDelete: undefined });
    expect(state.variables.local).toHaveProperty('l1');
  });
  it('adjusts the page after deleting the last row of the last page', () => {
    const state = list([
      { type: 'changePage', page: 1 },
      { type: 'askDelete', scope: 'local', key: 'l2' },
      { type: 'confirmDelete' },
    ]);
    expect(state.variables.local).not.toHaveProperty('l2');
    expect(state).toMatchObject({ page: 0, open: true });
  });
  it('closes the list once both variable sets are empty', () => {
    const state = list(
      [{ type: 'askDelete', scope: 'global', key: 'g0' }, { type: 'confirmDelete' }],
      many(1, 'g'),
      {},
    );
    expect(state.open).toBe(false);
    expect(state.variables).toEqual({ global: {}, local: {} });
  });
});
