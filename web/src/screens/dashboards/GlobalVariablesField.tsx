// The form's global variables. Until the 'Daftar Variabel' / 'Tambah Variabel Baru' dialogs are drawn on the headless
// logic in web/src/dashboards/editor (variableList.ts, variableDialog.ts), they are edited here as one JSON object;
// the dialogs replace this field's body and keep its value/onChange contract (JSON text of the `var` map).
import { Stack, TextField, Typography } from '@mui/material';
import { T } from '@sentra/contracts';

const s = T.dashboards.screens;

function countOf(text: string): number | undefined {
  try {
    const v = JSON.parse(text || '{}') as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.keys(v).length : undefined;
  } catch {
    return undefined;
  }
}

export function GlobalVariablesField({ value, error, disabled, onChange }: { value: string; error?: string; disabled?: boolean; onChange(text: string): void }) {
  const count = countOf(value);
  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 700 }}>{s.globalVariables}</Typography>
        {count !== undefined && <Typography variant="caption" color="text.secondary">{s.variablesCount(count)}</Typography>}
      </Stack>
      <TextField
        name="variables"
        label={s.variablesJson}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={!!error}
        helperText={error ?? s.variablesJsonHelper}
        disabled={disabled}
        multiline
        minRows={4}
        fullWidth
        slotProps={{ input: { sx: { fontFamily: 'monospace', fontSize: 13 } } }}
      />
    </Stack>
  );
}
