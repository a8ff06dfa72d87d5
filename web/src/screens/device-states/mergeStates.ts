// A device's states kept current: live state reports change a row in place (a changed value restarts initial_ts, a
// repeated one moves latest_ts), rows in the server's key order.
import { useCallback, useEffect, useState } from 'react';
import { compareStateKeys, contracts, type StateRow } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { useLiveDeviceData, type DeviceDataEvent } from '../../live/deviceData.js';

export function mergeStates(rows: StateRow[], events: readonly DeviceDataEvent[]): StateRow[] {
  const map = new Map(rows.map((r) => [r.key, r]));
  for (const e of events)
    for (const s of e.states) {
      const old = map.get(s.key);
      if (old && s.ts < old.latest_ts) continue;
      const same = old && JSON.stringify(old.value) === JSON.stringify(s.value);
      map.set(s.key, {
        key: s.key,
        value: s.value,
        is_null: s.is_null,
        initial_ts: same ? old.initial_ts : s.ts,
        latest_ts: s.ts,
      });
    }
  return [...map.values()].sort((a, b) => compareStateKeys(a.key, b.key));
}

/** The device's states (null while loading, [] without a device or on failure) and its label, live. */
export function useDeviceStates(id: number | null) {
  const [label, setLabel] = useState('');
  const [rows, setRows] = useState<StateRow[] | null>(null);
  const load = useCallback(async () => {
    if (!id) return setRows([]);
    const r = await api.call(contracts.states.list, { device_id: id });
    if (isOk(r)) {
      setLabel(r.body.device_label);
      setRows(r.body.states);
    } else setRows([]);
  }, [id]);
  useEffect(() => void load(), [load]);
  useLiveDeviceData(id, (events) =>
    setRows((prev) =>
      prev
        ? mergeStates(
            prev,
            events.filter((e) => e.device_id === id && e.states.length),
          )
        : prev,
    ),
  );
  return { label, rows, load };
}
