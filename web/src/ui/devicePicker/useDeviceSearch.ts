// A picker's live search: while its list is open, the devices matching what is typed (asked 200 ms after the last
// key, an answer to older text dropped), and the held devices' names.
import { useEffect, useState } from 'react';
import type { DeviceChoice } from '@sentra/contracts';
import { knownDevice, loadDevices, searchDevices, type DevicePage } from './deviceSearch.js';

const TYPING_PAUSE_MS = 200;

export function useDeviceSearch(open: boolean, text: string, tags: readonly string[] = []) {
  const tagKey = tags.join('\n');
  const key = `${text.trim()}\u0000${tagKey}`;
  const [page, setPage] = useState<(DevicePage & { key: string }) | null>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    const timer = setTimeout(
      () =>
        void searchDevices(text, tagKey ? tagKey.split('\n') : []).then((p) => {
          if (live) setPage({ ...p, key });
        }),
      text.trim() ? TYPING_PAUSE_MS : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [open, key]);
  // an answer to other text is never offered: Enter right after typing must not take a device the text no longer names
  const current = page?.key === key ? page : null;
  return { devices: current?.devices ?? [], total: current?.total ?? 0, loading: open && !current };
}

/** The held devices, named once known (asked for the ones this page has not seen). */
export function useHeldDevices(ids: readonly number[]): (DeviceChoice | undefined)[] {
  const idKey = ids.join(',');
  const [, setLoaded] = useState(0);
  useEffect(() => {
    let live = true;
    void loadDevices(ids).then(() => live && setLoaded((n) => n + 1));
    return () => {
      live = false;
    };
  }, [idKey]);
  return ids.map(knownDevice);
}
