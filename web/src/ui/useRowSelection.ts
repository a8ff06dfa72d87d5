// The rows chosen on a list with checkboxes (the device list's bulk actions): kept by id across pages, with the page's
// "all" checkbox (checked when every row of the page is chosen, mixed when some are).
import { useState } from 'react';

export function useRowSelection<Row extends { id: number }>(rows: readonly Row[] | null) {
  const [checked, setChecked] = useState<Map<number, Row>>(new Map());
  const pageIds = rows?.map((r) => r.id) ?? [];
  const allChecked = pageIds.length > 0 && pageIds.every((id) => checked.has(id));
  const someChecked = pageIds.some((id) => checked.has(id));
  const change = (edit: (next: Map<number, Row>) => void) =>
    setChecked((prev) => {
      const next = new Map(prev);
      edit(next);
      return next;
    });
  return {
    checked,
    allChecked,
    someChecked,
    /** the page's "all" checkbox: unchecks the page's rows when all are chosen, else chooses them all */
    toggleAll: () =>
      change((next) =>
        allChecked ? pageIds.forEach((id) => next.delete(id)) : rows?.forEach((r) => next.set(r.id, r)),
      ),
    toggle: (row: Row) => change((next) => (next.has(row.id) ? next.delete(row.id) : next.set(row.id, row))),
    uncheck: (id: number) => change((next) => next.delete(id)),
    /** only these rows chosen (none when empty) */
    checkOnly: (chosen: readonly Row[] = []) => setChecked(new Map(chosen.map((r) => [r.id, r]))),
  };
}
