// The history choice of the Data and Lihat State dialogs (spec 03 sections 2.5, 2.6, 9): tabs "Nilai Terakhir" (the
// latest 25, 50 or 100) and "Waktu" (a date-time range, the last 24 hours by default, MM/DD/YYYY HH:mm:ss), which
// request the choice makes (none while a date is missing or the end is before the start: the end field says why), and
// the rows it answered, paged 25/50/100 with a note when the server kept only the newest of a long range.
import { useEffect, useRef, useState } from 'react';
import { Alert, MenuItem, Stack, Tab, Tabs, TextField } from '@mui/material';
import { rangeInOrder, T } from '@sentra/contracts';
import { DateTimeField } from '../../../ui/DateTimeField.js';
import type { ApiResult } from '../../../api/request.js';
import { loadFailureReason } from '../loadFailure.js';

const LATEST_SIZES = [25, 50, 100] as const;
/** the data dialogs' page sizes (spec 03 section 9), default 25 */
export const HISTORY_PAGE_SIZES = [25, 50, 100] as const;
const DAY_MS = 86_400_000;

export type HistoryTab = 'latest' | 'time';

export function useHistoryRange(now = Date.now()) {
  const [tab, setTab] = useState<HistoryTab>('latest');
  const [n, setN] = useState<number>(LATEST_SIZES[0]);
  const [start, setStart] = useState<number | null>(() => now - DAY_MS);
  const [end, setEnd] = useState<number | null>(() => now);
  return { tab, n, start, end, setTab, setN, setStart, setEnd };
}
export type HistoryRange = ReturnType<typeof useHistoryRange>;
type RangeChoice = Pick<HistoryRange, 'tab' | 'n' | 'start' | 'end'>;

/** why a time range cannot be asked for (shown under the end field), or null */
export const rangeProblem = (start: number | null, end: number | null): string | null =>
  start !== null && end !== null && !rangeInOrder({ start, end }) ? T.deviceData.rangeOrder : null;

/** The request of the chosen tab: the latest n, or the time range when both ends are set and in order; null asks for nothing. */
export function historyRequest<R>(
  range: RangeChoice,
  calls: { latest(n: number): R; time(from: number, to: number): R },
): R | null {
  if (range.tab === 'latest') return calls.latest(range.n);
  const { start, end } = range;
  return start !== null && end !== null && !rangeProblem(start, end) ? calls.time(start, end) : null;
}

export interface HistoryAnswer<Row> {
  rows: Row[];
  /** the server kept only the newest `rows` of a longer range */
  truncated: boolean;
  /** the read failed: why (said over the table, never shown as "no data") */
  failed?: string;
}

/** the answer of a history read that failed: no rows, and the reason the dialog says */
export const historyFailed = (r: ApiResult<unknown>): HistoryAnswer<never> => ({
  rows: [],
  truncated: false,
  failed: T.deviceData.historyFailed(loadFailureReason(r)),
});

/**
 * The rows of the current choice: null while asking or while the choice asks for nothing. `calls` may be a new object
 * each render; `source` names what is read (a series, a state key) and asks again when it changes.
 */
export function useHistoryRows<Row>(
  range: RangeChoice,
  source: string,
  calls: {
    latest(n: number): Promise<HistoryAnswer<Row>>;
    time(from: number, to: number): Promise<HistoryAnswer<Row>>;
  },
) {
  const [answer, setAnswer] = useState<HistoryAnswer<Row> | null>(null);
  const latestCalls = useRef(calls);
  latestCalls.current = calls;
  const { tab, n, start, end } = range;
  useEffect(() => {
    let live = true;
    setAnswer(null);
    void historyRequest({ tab, n, start, end }, latestCalls.current)?.then((a) => live && setAnswer(a));
    return () => {
      live = false;
    };
  }, [source, tab, n, start, end]);
  return answer;
}

/** The tabs and, under them, the count select or the start and end fields. */
export function HistoryRangeFields({ range }: { range: HistoryRange }) {
  const { tab, n, start, end, setTab, setN, setStart, setEnd } = range;
  const problem = rangeProblem(start, end);
  return (
    <>
      <Tabs value={tab} onChange={(_, v: HistoryTab) => setTab(v)} sx={{ mb: 2 }}>
        <Tab value="latest" label={T.deviceData.latestTab} />
        <Tab value="time" label={T.deviceData.timeTab} />
      </Tabs>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        {tab === 'latest' ? (
          <TextField
            select
            size="small"
            label={T.deviceData.latestCount}
            value={n}
            onChange={(e) => setN(Number(e.target.value))}
            sx={{ width: 160 }}
          >
            {LATEST_SIZES.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <>
            <DateTimeField
              size="small"
              label={T.deviceData.start}
              placeholder={T.deviceData.start}
              value={start}
              onChange={setStart}
            />
            <DateTimeField
              size="small"
              label={T.deviceData.end}
              placeholder={T.deviceData.end}
              value={end}
              onChange={setEnd}
              error={Boolean(problem)}
              helperText={problem ?? undefined}
            />
          </>
        )}
      </Stack>
    </>
  );
}

/** the note over a history answer: the read failed (why), or the server cut a range to its newest rows */
export function HistoryNote({ answer }: { answer: HistoryAnswer<unknown> | null }) {
  if (answer?.failed)
    return (
      <Alert severity="error" sx={{ mb: 2 }} data-testid="history-failed">
        {answer.failed}
      </Alert>
    );
  if (!answer?.truncated) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="history-truncated">
      {T.deviceData.truncated(answer.rows.length)}
    </Alert>
  );
}
