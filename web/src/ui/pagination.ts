// The labels every paged table shows (docs/conventions.md "Console tables"): 'Baris terlihat:' and 'x-y dari n', as
// props of MUI's TablePagination, plus a page clamp for when the total shrinks under the current page (a delete, a new
// filter).
import { T } from '@sentra/contracts';

export const paginationLabels = {
  labelRowsPerPage: T.table.rowsPerPage,
  labelDisplayedRows: ({ from, to, count }: { from: number; to: number; count: number }) =>
    T.table.displayedRows(from, to, count),
} as const;

/** The last page that still has rows (0 when there are none). */
export const lastPage = (total: number, size: number) => Math.max(0, Math.ceil(total / size) - 1);
