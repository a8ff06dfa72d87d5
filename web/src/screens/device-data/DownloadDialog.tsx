// The Download dialog (spec 03 sections 2.5, 2.6, 5, 9): by "Waktu" (start one calendar month back, end now, any date,
// MM/DD/YYYY HH:mm:ss, placeholders awal/akhir, both required, the end not before the start) or by "Jumlah Data
// Terakhir" (default 50, an integer 1..5000); Batal and Simpan.
import { useState } from 'react';
import dayjs from 'dayjs';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import { DOWNLOAD_NDATA_MAX, T } from '@sentra/contracts';
import { DateTimeField } from '../../ui/DateTimeField.js';
import { rangeProblem } from './shared/HistoryRange.js';

export type DownloadChoice = { kind: 'time'; start: number; end: number } | { kind: 'count'; n: number };

/** the same time of day one calendar month earlier (31 March → the last of February) */
export const monthBack = (now: number) => dayjs(now).subtract(1, 'month').valueOf();

/** the count field's rule: an integer 1..5000 */
export const validCount = (text: string) =>
  /^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= DOWNLOAD_NDATA_MAX;

export function DownloadDialog({
  title,
  onClose,
  onDownload,
  now = Date.now(),
}: {
  title: string;
  onClose: () => void;
  onDownload: (c: DownloadChoice) => void;
  now?: number;
}) {
  const [kind, setKind] = useState<'time' | 'count'>('time');
  const [start, setStart] = useState<number | null>(() => monthBack(now));
  const [end, setEnd] = useState<number | null>(now);
  const [count, setCount] = useState('50');
  const problem = rangeProblem(start, end);
  const ready = kind === 'time' ? start !== null && end !== null && !problem : validCount(count);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <RadioGroup row value={kind} onChange={(e) => setKind(e.target.value as 'time' | 'count')}>
          <FormControlLabel value="time" control={<Radio />} label={T.deviceData.byTime} />
          <FormControlLabel value="count" control={<Radio />} label={T.deviceData.byCount} />
        </RadioGroup>
        {kind === 'time' ? (
          <Stack spacing={2} sx={{ mt: 1 }}>
            <DateTimeField
              fullWidth
              label={T.deviceData.start}
              placeholder={T.deviceData.start}
              value={start}
              onChange={setStart}
            />
            <DateTimeField
              fullWidth
              label={T.deviceData.end}
              placeholder={T.deviceData.end}
              value={end}
              onChange={setEnd}
              error={Boolean(problem)}
              helperText={problem ?? undefined}
            />
          </Stack>
        ) : (
          <TextField
            sx={{ mt: 1 }}
            fullWidth
            label={T.deviceData.byCount}
            value={count}
            onChange={(e) => setCount(e.target.value)}
            error={!validCount(count)}
            helperText={validCount(count) ? ' ' : T.deviceData.ndataRange}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button
          variant="contained"
          disabled={!ready}
          onClick={() => onDownload(kind === 'time' ? { kind, start: start!, end: end! } : { kind, n: Number(count) })}
        >
          {T.common.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
