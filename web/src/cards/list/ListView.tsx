// The list cards: LIST_CARD (devices by all/tags), LIST_CUSTOM_CARD (chosen devices), LIST_TRANSACTION_CARD and
// LIST_PAYMENT_CARD (newest first, scrolling). Device lists page with as many rows as the card's height holds.
import { useEffect, useState } from 'react';
import { TablePagination, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { paginationLabels, lastPage } from '../../ui/pagination.js';
import { CARD_CLASS } from '../common/cardStyles.js';
import type { CardViewProps } from '../common/definition.js';
import { cellText, columnLabel, listRows, type ListKind, type ListView as ListViewFields } from './rows.js';

const ROW_PX = 33;
const HEAD_PX = 36;
const PAGER_PX = 44;

export function ListCardView({
  kind,
  view,
  data,
  decimals,
  height,
}: CardViewProps<ListViewFields> & { kind: ListKind }) {
  const { keys, rows } = listRows(kind, data, view);
  const scrolling = kind === 'transaction' || kind === 'payment';
  const perPage = Math.max(1, Math.floor((height - HEAD_PX - PAGER_PX) / ROW_PX));
  const [page, setPage] = useState(0);
  useEffect(() => setPage((p) => Math.min(p, lastPage(rows.length, perPage))), [rows.length, perPage]);
  const shown = scrolling ? rows : rows.slice(page * perPage, page * perPage + perPage);
  return (
    <div className={CARD_CLASS.column}>
      {data?.alert && (
        <Typography variant="caption" color="warning.main">
          {data.alert}
        </Typography>
      )}
      {/* plain table elements styled by the card stylesheet: a push re-renders every cell, without style work per cell */}
      <div className={CARD_CLASS.tableBox}>
        <table className={CARD_CLASS.table} data-testid="card-list">
          <thead>
            <tr>
              {keys.map((k) => (
                <th key={k} scope="col">
                  {columnLabel(k, view)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 && (
              <tr>
                <td colSpan={Math.max(1, keys.length)} className={CARD_CLASS.muted}>
                  {T.cardViews.listEmpty}
                </td>
              </tr>
            )}
            {shown.map((r, i) => (
              <tr key={String(r.device_id ?? '') + ':' + i}>
                {keys.map((k) => (
                  <td key={k} className={k === 'status' && r[k] === false ? CARD_CLASS.inactive : undefined}>
                    {cellText(kind, k, r[k], view, decimals)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
    </div>
  );
}

export const AutoListView = (p: CardViewProps<ListViewFields>) => <ListCardView {...p} kind="auto" />;
export const ManualListView = (p: CardViewProps<ListViewFields>) => <ListCardView {...p} kind="manual" />;
export const TransactionListView = (p: CardViewProps<ListViewFields>) => <ListCardView {...p} kind="transaction" />;
export const PaymentListView = (p: CardViewProps<ListViewFields>) => <ListCardView {...p} kind="payment" />;
