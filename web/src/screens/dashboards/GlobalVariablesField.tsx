// The form's global variables: 'List Variabel' ('Daftar Variabel') and 'Tambah Variabel' ('Tambah Variabel Baru', Filter
// offered) drawn on the headless logic in editor/ (variableList.ts, variableDialog.ts); the field keeps its value/onChange contract (JSON
// text of the `var` map).
import { Stack, Typography } from '@mui/material';
import { T, type VariableValue } from '@sentra/contracts';
import { VariableButtons } from './editor/VariableButtons.js';
import { loadSource } from './editor/editorCalls.js';

const s = T.dashboards.screens;

function variablesOf(text: string): Record<string, VariableValue> | undefined {
  try {
    const v = JSON.parse(text || '{}') as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, VariableValue>) : undefined;
  } catch {
    return undefined;
  }
}

export function GlobalVariablesField({
  value,
  error,
  disabled,
  onChange,
}: {
  value: string;
  error?: string;
  disabled?: boolean;
  onChange(text: string): void;
}) {
  const variables = variablesOf(value) ?? {};
  const write = (next: Record<string, VariableValue>) => onChange(JSON.stringify(next, null, 2));
  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 700 }}>
          {s.globalVariables}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {s.variablesCount(Object.keys(variables).length)}
        </Typography>
      </Stack>
      <Stack direction="row" spacing={1.5} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <VariableButtons
          scope="global"
          global={variables}
          disabled={disabled}
          loadSource={() => loadSource()}
          onSave={(key, v) => write({ ...variables, [key]: v })}
          onRemove={(_, key) => write(Object.fromEntries(Object.entries(variables).filter(([k]) => k !== key)))}
        />
      </Stack>
      {error && (
        <Typography variant="caption" color="error">
          {error}
        </Typography>
      )}
    </Stack>
  );
}
