// The list cards: LIST_CARD (devices by all/tags), LIST_CUSTOM_CARD (chosen devices), LIST_TRANSACTION_CARD and
// LIST_PAYMENT_CARD (newest first, scrolling). Device lists page with as many rows as the card's height holds.
import { useEffect, useState } from 'react';
import { Box, Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { paginationLabels, lastPage } from '../../ui/pagination.js';
import type { CardViewProps } from '../common/definition.js';
import { cellText, columnLabel, listRows, type ListKind, type ListView as ListViewFields } from './rows.js';

const ROW_PX = 33;
const HEAD_PX = 36;
const PAGER_PX = 44;

export function ListCardView({ kind, view, data, decimals, height }: CardViewProps<ListViewFields> & { kind: ListKind }) {
  const { keys, rows } = listRows(kind, data, view);
  const scrolling = kind === 'transaction' || kind === 'payment';
  const perPage = Math.max(1, Math.floor((height - HEAD_PX - PAGER_PX) / ROW_PX));
  const [page, setPage] = useState(0);
  useEffect(() => setPage((p) => Math.min(p, lastPage(rows.length, perPage))), [rows.length, perPage]);
  const shown = scrolling ? rows : rows.slice(page * perPage, page * perPage + perPage);
  return (
    <Box sx={{ height: '100%', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      {data?.alert && (
        <Typography variant="caption" color="warning.main">{data.alert}</Typography>
      )}
      <TableContainer sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
        <Table size="small" stickyHeader data-testid="card-list">
          <TableHead>
            <TableRow>
              {keys.map((k) => (
                <TableCell key={k} sx={{ fontWeight: 700, whiteSpace: 'nowrap', bgcolor: 'background.paper' }}>{columnLabel(k, view)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.length === 0 && (
              <TableRow>
                <TableCell colSpan={Math.max(1, keys.length)} sx={{ color: 'text.secondary' }}>{T.cardViews.listEmpty}</TableCell>
              </TableRow>
            )}
            {shown.map((r, i) => (
              <TableRow key={String(r.device_id ?? '') + ':' + i} hover>
                {keys.map((k) => (
                  <TableCell key={k} sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums', color: k === 'status' && r[k] === false ? 'text.disabled' : undefined }}>
                    {cellText(kind, k, r[k], view, decimals)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {!scrolling && rows.length > perPage && (
        <TablePagination
          component="div"
          count={rows.length}
          page={Math.min(page, lastPage(rows.length, perPage))}
          rowsPerPage={perPage}
          rowsPerPageOptions={[perPage]}
          onPageChange={(_, p) => setPage(p)}
          {...paginationLabels}
          sx={{ flexShrink: 0, '& .MuiTablePagination-toolbar': { minHeight: PAGER_PX, px: 0 } }}
        />
      )}
    </Box>
  );
}

export const AutoListView = (p: CardViewProps<ListViewFields>) => <ListCardView {...p} kind="auto" />;
export const ManualListView = (p: CardViewProps<ListViewFields>) => <ListCardView {...p} kind="manual" />;
export const TransactionListView = (p: CardViewProps<ListViewFields>) => <ListCardView {...p} kind="transaction" />;
export const PaymentListView = (p: CardViewProps<ListViewFields>) => <ListCardView {...p} kind="payment" />;
