// The history choice of the Data and Lihat State dialogs (spec 03 sections 2.5, 2.6): tabs "Nilai Terakhir" (the latest
// 25, 50 or 100) and "Waktu" (a date-time range, the last 24 hours by default), and which request the choice makes.
import { useState } from 'react';
import { MenuItem, Stack, Tab, Tabs, TextField } from '@mui/material';
import { T } from '@sentra/contracts';
import { fromInputValue, toInputValue } from '../format.js';

const LATEST_SIZES = [25, 50, 100] as const;
const DAY_MS = 86_400_000;

export type HistoryTab = 'latest' | 'time';

export function useHistoryRange() {
  const [tab, setTab] = useState<HistoryTab>('latest');
  const [n, setN] = useState<number>(LATEST_SIZES[0]);
  const [start, setStart] = useState(() => toInputValue(Date.now() - DAY_MS));
  const [end, setEnd] = useState(() => toInputValue(Date.now()));
  return { tab, n, start, end, setTab, setN, setStart, setEnd };
}
export type HistoryRange = ReturnType<typeof useHistoryRange>;

/** The request of the chosen tab: the latest n, or the time range when both ends are valid; null asks for nothing. */
export function historyRequest<R>(range: Pick<HistoryRange, 'tab' | 'n' | 'start' | 'end'>, calls: { latest(n: number): R; time(from: number, to: number): R }): R | null {
  if (range.tab === 'latest') return calls.latest(range.n);
  const from = fromInputValue(range.start);
  const to = fromInputValue(range.end);
  return from !== null && to !== null ? calls.time(from, to) : null;
}

/** The tabs and, under them, the count select or the start and end inputs. */
export function HistoryRangeFields({ range }: { range: HistoryRange }) {
  const { tab, n, start, end, setTab, setN, setStart, setEnd } = range;
  return (
    <>
      <Tabs value={tab} onChange={(_, v: HistoryTab) => setTab(v)} sx={{ mb: 2 }}>
        <Tab value="latest" label={T.deviceData.latestTab} />
        <Tab value="time" label={T.deviceData.timeTab} />
      </Tabs>
      <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
        {tab === 'latest' ? (
          <TextField select size="small" label={T.deviceData.latestCount} value={n} onChange={(e) => setN(Number(e.target.value))} sx={{ width: 160 }}>
            {LATEST_SIZES.map((s) => <MenuItem key={s} value={s}>{s}</MenuItem>)}
          </TextField>
        ) : (
          <>
            <TextField size="small" type="datetime-local" label={T.deviceData.start} value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }} />
            <TextField size="small" type="datetime-local" label={T.deviceData.end} value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }} />
          </>
        )}
      </Stack>
    </>
  );
}
