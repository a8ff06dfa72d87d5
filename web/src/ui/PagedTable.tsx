// The scaffolding of the paged list screens (spec 03 section 2.1, docs/conventions.md "Console tables"): the heading
// with its subtitle and action, the table in an outlined paper that shows the empty state instead when a page has no
// rows, the pager with the shared labels and page clamp, the loading overlay, and the load of one page from the server.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import {
  Box,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { EmptyState } from './EmptyState.js';
import { LoadingOverlay } from './LoadingOverlay.js';
import { lastPage, paginationLabels } from './pagination.js';

export interface Paging {
  page: number;
  size: number;
}

/** MUI's TablePagination with the shared labels; the page shown never passes the last page of `total` rows. */
export function TablePager({
  total,
  paging,
  sizes,
  onPaging,
}: {
  total: number;
  paging: Paging;
  sizes: readonly number[];
  onPaging(p: Paging): void;
}) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={clampPage(paging, total)}
      rowsPerPage={paging.size}
      rowsPerPageOptions={[...sizes]}
      onPageChange={(_, page) => onPaging({ ...paging, page })}
      onRowsPerPageChange={(e) => onPaging({ page: 0, size: Number(e.target.value) })}
      {...paginationLabels}
    />
  );
}

/** The page a table shows: the asked page, or the last page that still has rows when the total shrank under it. */
export const clampPage = (paging: Paging, total: number) => Math.min(paging.page, lastPage(total, paging.size));

/**
 * The page state of a table paged in the browser over all its rows: the rows on the current page and the pager's props.
 * When the rows shrink under the page (a delete, a live update, a new result) the page itself moves back, so the rows
 * sliced and the page the pager shows are the same, and later growth does not jump forward again.
 */
export function useClientPaging<Row>(rows: readonly Row[] | null, initialSize: number) {
  const [asked, setPaging] = useState<Paging>({ page: 0, size: initialSize });
  const total = rows?.length ?? 0;
  const page = rows === null ? asked.page : clampPage(asked, total);
  // adjusting state while rendering (React's documented pattern for state derived from props): no empty frame
  if (page !== asked.page) setPaging({ ...asked, page });
  const paging = page === asked.page ? asked : { ...asked, page };
  const shown = rows?.slice(page * paging.size, page * paging.size + paging.size) ?? [];
  return { shown, pager: { total, paging, onPaging: setPaging } };
}

/** The one row a table shows when it has no rows (tables whose empty state stays inside the table). */
export function TableEmptyRow({ colSpan, text, py = 5 }: { colSpan: number; text: string; py?: number }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ textAlign: 'center', py, color: 'text.secondary' }}>
        {text}
      </TableCell>
    </TableRow>
  );
}

/** A header cell: its text, or its text with a width or the right alignment (an "Aksi" column). */
export type Column = string | { text: string; width?: number; align?: 'right' };

/** The header cells of `columns`. */
export const columnCells = (columns: readonly Column[]) =>
  columns.map((c) =>
    typeof c === 'string' ? (
      <TableCell key={c}>{c}</TableCell>
    ) : (
      <TableCell key={c.text} align={c.align} sx={c.width ? { width: c.width } : undefined}>
        {c.text}
      </TableCell>
    ),
  );

/** A table paged in the browser over all its rows: outlined, its one empty row when there are no rows, the pager under it. */
export function BrowserPagedTable({
  label,
  head,
  columns,
  children,
  emptyRow,
  pager,
}: {
  label: string;
  /** the header row's cells, or instead */
  head?: ReactNode;
  /** its columns */
  columns?: readonly Column[];
  children: ReactNode;
  emptyRow: { colSpan: number; text: string } | null;
  pager: { total: number; paging: Paging; sizes: readonly number[]; onPaging(p: Paging): void };
}) {
  return (
    <>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>{columns ? columnCells(columns) : head}</TableRow>
          </TableHead>
          <TableBody>
            {children}
            {emptyRow && <TableEmptyRow {...emptyRow} />}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePager {...pager} />
    </>
  );
}

/** A list screen's title, subtitle and its main action (a "... Baru" button) on the right. */
export function ListHeading({
  title,
  subtitle,
  action,
  mb = 2,
}: {
  title: string;
  subtitle: string;
  action?: ReactNode;
  /** the space under it: 2 over a table, 3 over a grid of cards */
  mb?: number;
}) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ mb, justifyContent: 'space-between', alignItems: { sm: 'flex-end' } }}
    >
      <Box>
        <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        <Typography color="text.secondary">{subtitle}</Typography>
      </Box>
      {action}
    </Stack>
  );
}

export interface PagedTableProps {
  /** the table's aria label */
  label: string;
  /** the header row's cells */
  head: ReactNode;
  /** the body rows */
  children: ReactNode;
  /** null until the first page arrived */
  rowCount: number | null;
  loading: boolean;
  /** work on the rows (a delete): the overlay shows, the empty state does not wait for it */
  busy?: boolean;
  /** what replaces the table when a loaded page has no rows ("Oopss..." or not found) */
  empty: { title: string; hint?: string };
  pager: { total: number; paging: Paging; sizes: readonly number[]; onPaging(p: Paging): void };
  /** above the table inside the paper (a bulk bar) */
  top?: ReactNode;
  minHeight?: number;
}

/** A server-paged list: the table (or its empty state) and the pager in an outlined paper under a loading overlay. */
export function PagedTable({
  label,
  head,
  children,
  rowCount,
  loading,
  busy = false,
  empty,
  pager,
  top,
  minHeight = 200,
}: PagedTableProps) {
  return (
    <Paper variant="outlined" sx={{ position: 'relative', minHeight }}>
      {top}
      {rowCount === 0 && !loading ? (
        <EmptyState title={empty.title} hint={empty.hint} />
      ) : (
        <TableContainer>
          <Table size="small" aria-label={label}>
            <TableHead>
              <TableRow>{head}</TableRow>
            </TableHead>
            <TableBody>{children}</TableBody>
          </Table>
        </TableContainer>
      )}
      <TablePager {...pager} />
      <LoadingOverlay open={loading || busy} />
    </Paper>
  );
}

/** A list updater putting `saved` in place of the row with its id (a toggled or regenerated row); no list stays none. */
export const withSavedRow =
  <Row extends { id: unknown }>(saved: Row) =>
  (list: Row[] | null): Row[] | null =>
    list?.map((row) => (row.id === saved.id ? saved : row)) ?? list;

export interface PageOf<Row> {
  rows: Row[];
  total: number;
}

/**
 * Loads one page from the server whenever `fetchPage` changes (wrap it in useCallback with its filters and paging).
 * A failed fetch stops the indicator and shows nothing else (spec 03 section 4). `pastEnd`, when given, is told the
 * last page instead of showing an empty page past the end (rows removed elsewhere, a stored page).
 */
export function usePagedRows<Row>(
  fetchPage: () => Promise<PageOf<Row>>,
  pastEnd?: { page: number; size: number; goTo(page: number): void },
) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const page = pastEnd?.page;
  const size = pastEnd?.size;
  const goTo = pastEnd?.goTo;

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await fetchPage();
      if (
        goTo &&
        page !== undefined &&
        size !== undefined &&
        r.rows.length === 0 &&
        r.total > 0 &&
        page > lastPage(r.total, size)
      ) {
        goTo(lastPage(r.total, size));
        return;
      }
      setRows(r.rows);
      setTotal(r.total);
    } catch {
      setRows((prev) => prev ?? []);
    } finally {
      setLoading(false);
    }
  }, [fetchPage, page, size, goTo]);
  useEffect(() => {
    void load();
  }, [load]);

  return { rows, setRows, total, loading, load };
}
