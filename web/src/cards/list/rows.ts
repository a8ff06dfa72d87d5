// The rows and columns of a list card from table_data/table_keys: the manual list keeps the chosen devices
// (view.devices), transaction and payment lists show the newest first, and each cell is formatted by its column.
import { T, type CardData } from '@sentra/contracts';
import { formatDate } from '../common/dates.js';
import { formatValue, type UnitView } from '../common/format.js';

export type ListKind = 'auto' | 'manual' | 'transaction' | 'payment';
export type ListRow = Record<string, unknown>;

export interface ListView extends UnitView {
  devices?: (string | number)[];
  date_format?: string;
  locale?: string;
  columns?: Record<string, string>;
}

export function listRows(
  kind: ListKind,
  data: CardData | undefined,
  view: ListView,
): { keys: string[]; rows: ListRow[] } {
  const rows = Array.isArray(data?.table_data) ? [...(data!.table_data as ListRow[])] : [];
  const keys =
    Array.isArray(data?.table_keys) && data!.table_keys.length > 0
      ? data!.table_keys
      : rows[0]
        ? Object.keys(rows[0])
        : [];
  let shown = rows;
  if (kind === 'manual' && Array.isArray(view.devices) && view.devices.length > 0) {
    const chosen = new Set(view.devices.map(String));
    shown = rows.filter((r) => chosen.has(String(r.device_id)));
  }
  if (kind === 'transaction' || kind === 'payment')
    shown = [...shown].sort((a, b) => (Number(b.time) || 0) - (Number(a.time) || 0));
  return { keys, rows: shown };
}

export function columnLabel(key: string, view: ListView): string {
  return view.columns?.[key] ?? T.cardViews.columns[key] ?? key;
}

/** A cell as the list prints it. */
export function cellText(kind: ListKind, key: string, value: unknown, view: ListView, decimals?: number): string {
  if (value === null || value === undefined || value === '') return T.cardViews.noValue;
  if (key === 'time' && typeof value === 'number')
    return formatDate(value, view.date_format || 'HH:mm:ss, DD MMM YY', view.locale);
  if (key === 'status' && typeof value === 'boolean') return value ? T.cardViews.online : T.cardViews.offline;
  if (key === 'value') return formatValue(value, kind === 'payment' ? { ...view, type: 'RUPIAH' } : view, decimals);
  if (key === 'device_id' || key === 'label') return String(value);
  return formatValue(value, { decimal: view.decimal, full_number: view.full_number, locale: view.locale }, decimals);
}
