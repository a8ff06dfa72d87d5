// Looking a name up in a table that came from users (a dashboard's cards, a card's filters) or that users name (periods,
// functions): only the table's own keys count, so `__proto__`, `constructor` or `toString` find nothing.

/** `table[key]` when `table` holds `key` itself, else undefined. */
export const ownValue = <V>(
  table: Readonly<Partial<Record<string, V>>> | null | undefined,
  key: string,
): V | undefined => (table != null && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined);
