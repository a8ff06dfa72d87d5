// Array parameters for `unnest($1::bigint[], ...)`, written as PostgreSQL array literals straight from the batch's
// typed arrays (node-postgres would quote every element of a JS array: a string per number).

/** `{1,2,3}` of the values at `order` (all, in index order, when absent): bigint or float8 */
export function numbers(a: ArrayLike<number>, order?: ArrayLike<number>): string {
  const n = order ? order.length : a.length;
  const parts = new Array<string>(n);
  for (let k = 0; k < n; k++) parts[k] = String(a[order ? order[k]! : k]!);
  return `{${parts.join(',')}}`;
}

/** float8 values where `has[i]` is 1, NULL elsewhere */
export function nullableNumbers(a: ArrayLike<number>, has: ArrayLike<number>, order?: ArrayLike<number>): string {
  const n = order ? order.length : a.length;
  const parts = new Array<string>(n);
  for (let k = 0; k < n; k++) {
    const i = order ? order[k]! : k;
    parts[k] = has[i] ? String(a[i]!) : 'NULL';
  }
  return `{${parts.join(',')}}`;
}

/**
 * PostgreSQL text cannot hold U+0000 (SQLite can): a value or key holding it would fail its whole batch, every
 * device's points with it, so it is stored as U+FFFD.
 */
export const pgText = (s: string): string => (s.includes('\0') ? s.replace(/\0/g, '\uFFFD') : s);

const quoted = (s: string) => `"${pgText(s).replace(/[\\"]/g, '\\$&')}"`;

/** text values (quoted; null as NULL; U+0000 as U+FFFD) */
export function texts(values: ArrayLike<string | null>, order?: ArrayLike<number>): string {
  const n = order ? order.length : values.length;
  const parts = new Array<string>(n);
  for (let k = 0; k < n; k++) {
    const v = values[order ? order[k]! : k];
    parts[k] = v === null || v === undefined ? 'NULL' : quoted(v);
  }
  return `{${parts.join(',')}}`;
}

/** column `c` of flat rows of `width` numbers (a rollup snapshot's rows) */
export function column(rows: Float64Array, width: number, c: number): string {
  const n = rows.length / width;
  const parts = new Array<string>(n);
  for (let r = 0; r < n; r++) parts[r] = String(rows[r * width + c]!);
  return `{${parts.join(',')}}`;
}
