// The shared list scaffolding: the empty state in place of the table, the pager's labels and clamp, the browser-side
// paging, and the server page load with its past-the-end jump.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { TableCell, TableRow } from '@mui/material';
import { T } from '@sentra/contracts';
import { BrowserPagedTable, PagedTable, useClientPaging, usePagedRows, withSavedRow } from './PagedTable.js';

afterEach(cleanup);

const pager = (total: number, page = 0) => ({
  total,
  paging: { page, size: 10 },
  sizes: [5, 10, 25],
  onPaging: () => {},
});

/** The server-paged table "Daftar" with one column "Nama", loaded. */
const table = (rows: ReactNode, props: { rowCount: number; empty: { title: string; hint?: string }; pager: Paging }) =>
  render(
    <PagedTable label="Daftar" head={<TableCell>Nama</TableCell>} loading={false} {...props}>
      {rows}
    </PagedTable>,
  );
type Paging = ReturnType<typeof pager>;

describe('PagedTable', () => {
  it('shows the empty state instead of the table when a loaded page has no rows', () => {
    table(null, { rowCount: 0, empty: { title: 'Oopss...', hint: 'kosong' }, pager: pager(0) });
    expect(screen.getByTestId('empty-state').textContent).toContain('Oopss...');
    expect(screen.queryByRole('table')).toBeNull();
  });
  it('shows the table with its label, header and rows, and the pager clamped to the last page', () => {
    table(
      <TableRow>
        <TableCell>satu</TableCell>
      </TableRow>,
      { rowCount: 1, empty: { title: 'Oopss...' }, pager: pager(12, 5) },
    );
    expect(screen.getByRole('table', { name: 'Daftar' })).toBeTruthy();
    expect(screen.getByText(T.table.displayedRows(11, 12, 12))).toBeTruthy();
    expect(screen.getByText(T.table.rowsPerPage)).toBeTruthy();
  });
});

describe('BrowserPagedTable', () => {
  it('draws its header from a list of columns (a width, the action column on the right)', () => {
    render(
      <BrowserPagedTable
        label="Daftar"
        columns={['Nama', { text: 'Waktu', width: 200 }, { text: 'Aksi', align: 'right' }]}
        emptyRow={{ colSpan: 3, text: 'kosong' }}
        pager={{ ...pager(0), sizes: [10] }}
      >
        {null}
      </BrowserPagedTable>,
    );
    const heads = screen.getAllByRole('columnheader');
    expect(heads.map((h) => h.textContent)).toEqual(['Nama', 'Waktu', 'Aksi']);
    expect(heads[2]!.className).toMatch(/alignRight/);
    expect(screen.getByText('kosong')).toBeTruthy();
  });
});

describe('useClientPaging', () => {
  it('slices the rows of the current page and starts again at page 0 for a new size', () => {
    const rows = Array.from({ length: 30 }, (_, i) => i);
    const { result } = renderHook(() => useClientPaging(rows, 25));
    expect(result.current.shown).toHaveLength(25);
    act(() => result.current.pager.onPaging({ page: 1, size: 25 }));
    expect(result.current.shown).toEqual([25, 26, 27, 28, 29]);
    expect(result.current.pager.total).toBe(30);
  });
});

/** a browser-paged list of numbered rows, as the state list shows them */
function NumberList({ count }: { count: number }) {
  const rows = Array.from({ length: count }, (_, i) => `baris ${i + 1}`);
  const { shown, pager } = useClientPaging(rows, 100);
  return (
    <BrowserPagedTable
      label="Daftar"
      head={<TableCell>key</TableCell>}
      emptyRow={null}
      pager={{ ...pager, sizes: [100, 150, 200] }}
    >
      {shown.map((r) => (
        <TableRow key={r} data-testid="row">
          <TableCell>{r}</TableCell>
        </TableRow>
      ))}
    </BrowserPagedTable>
  );
}

describe('a browser-paged list after its rows shrink', () => {
  it('shows the last page that still has rows, and the pager says the same, when the last row of the last page is deleted', () => {
    const { rerender } = render(<NumberList count={101} />);
    act(() => screen.getByRole('button', { name: /next page/i }).click());
    expect(screen.getAllByTestId('row').map((r) => r.textContent)).toEqual(['baris 101']);
    expect(screen.getByText(T.table.displayedRows(101, 101, 101))).toBeTruthy();
    rerender(<NumberList count={100} />);
    expect(screen.getAllByTestId('row')).toHaveLength(100);
    expect(screen.getByText(T.table.displayedRows(1, 100, 100))).toBeTruthy();
    // growing again (a live update) stays on the page shown, it does not jump back to the old page
    rerender(<NumberList count={120} />);
    expect(screen.getByText(T.table.displayedRows(1, 100, 120))).toBeTruthy();
  });
  it('moves the page itself back, so the rows sliced and the page reported agree', () => {
    const { result, rerender } = renderHook(
      ({ n }) =>
        useClientPaging(
          Array.from({ length: n }, (_, i) => i),
          25,
        ),
      { initialProps: { n: 60 } },
    );
    act(() => result.current.pager.onPaging({ page: 2, size: 25 }));
    expect(result.current.shown).toEqual([50, 51, 52, 53, 54, 55, 56, 57, 58, 59]);
    rerender({ n: 40 });
    expect(result.current.pager.paging.page).toBe(1);
    expect(result.current.shown).toEqual(Array.from({ length: 15 }, (_, i) => 25 + i));
  });
});

describe('usePagedRows', () => {
  it('keeps the rows it had when a fetch fails, an empty list when it had none', async () => {
    const fetchPage = async () => Promise.reject(new Error('down'));
    const { result } = renderHook(() => usePagedRows(fetchPage));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.rows).toEqual([]);
  });
  it('goes to the last page instead of showing a page past the end', async () => {
    const goTo = vi.fn();
    const fetchPage = async () => ({ rows: [], total: 12 });
    const { result } = renderHook(() => usePagedRows(fetchPage, { page: 4, size: 10, goTo }));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(goTo).toHaveBeenCalledWith(1);
    expect(result.current.rows).toBeNull();
  });
});

describe('withSavedRow', () => {
  it('puts the saved row in place of the one with its id and leaves the others and a missing list alone', () => {
    const list = [
      { id: 1, active: false },
      { id: 2, active: false },
    ];
    expect(withSavedRow({ id: 2, active: true })(list)).toEqual([
      { id: 1, active: false },
      { id: 2, active: true },
    ]);
    expect(withSavedRow({ id: 3, active: true })(list)).toEqual(list);
    expect(withSavedRow({ id: 2, active: true })(null)).toBeNull();
  });
});
