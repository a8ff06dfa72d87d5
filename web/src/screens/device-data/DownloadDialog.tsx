// The Download dialog (spec 03 sections 2.5, 2.6, 5, 9): by "Waktu" (start one month back, end today, placeholders
// awal/akhir, both required) or by "Jumlah Data Terakhir" (default 50, an integer 1..5000); Batal and Simpan.
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Radio, RadioGroup, Stack, TextField } from '@mui/material';
import { DOWNLOAD_NDATA_MAX, T } from '@sentra/contracts';
import { fromInputValue, toInputValue } from './format.js';

export type DownloadChoice = { kind: 'time'; start: number; end: number } | { kind: 'count'; n: number };

const MONTH_MS = 30 * 86_400_000;

/** the count field's rule: an integer 1..5000 */
export const validCount = (text: string) => /^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= DOWNLOAD_NDATA_MAX;

export function DownloadDialog({ title, onClose, onDownload }: { title: string; onClose: () => void; onDownload: (c: DownloadChoice) => void }) {
  const [kind, setKind] = useState<'time' | 'count'>('time');
  const [start, setStart] = useState(() => toInputValue(Date.now() - MONTH_MS));
  const [end, setEnd] = useState(() => toInputValue(Date.now()));
  const [count, setCount] = useState('50');
  const from = fromInputValue(start);
  const to = fromInputValue(end);
  const ready = kind === 'time' ? from !== null && to !== null : validCount(count);

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
            <TextField type="datetime-local" label={T.deviceData.start} placeholder={T.deviceData.start} value={start} onChange={(e) => setStart(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }} />
            <TextField type="datetime-local" label={T.deviceData.end} placeholder={T.deviceData.end} value={end} onChange={(e) => setEnd(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }} />
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
          onClick={() => onDownload(kind === 'time' ? { kind, start: Math.min(from!, to!), end: Math.max(from!, to!) } : { kind, n: Number(count) })}
        >
          {T.common.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
