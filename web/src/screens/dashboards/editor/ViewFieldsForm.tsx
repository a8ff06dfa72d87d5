// The one form renderer of the view fields (docs/conventions.md "Editors are data drawn by one form renderer"): draws
// any list of ViewFieldSpec (viewFields.ts, beside it) by kind.
import {
  Box,
  Button,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { T } from '@sentra/contracts';
import type { ViewFieldSpec, ViewFieldValue, ViewFormValues } from './viewFields.js';
import { DevicesPicker } from '../../../ui/DevicePicker.js';
import { IconPicker } from './IconPicker.js';

export interface ViewFieldsFormProps {
  specs: readonly ViewFieldSpec[];
  values: ViewFormValues;
  errors: Record<string, string>;
  onChange(name: string, value: ViewFieldValue): void;
  /** a `devices` field picks among the devices carrying these tags (the card's) */
  deviceTags?: readonly string[];
  /** the choices of a `series` field: the series the card's value query names */
  series?: readonly string[];
}

const DEFAULT_COLOR = '#1976d2';

export function ViewFieldsForm({ specs, values, errors, onChange, deviceTags, series = [] }: ViewFieldsFormProps) {
  if (specs.length === 0) return <Typography color="text.secondary">{T.dashboards.view.noFields}</Typography>;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2, pt: 1 }}>
      {specs.map((spec) => (
        <Field
          key={spec.name}
          spec={
            spec.kind === 'series' && series.length > 0
              ? { ...spec, kind: 'select', options: series.map((s) => ({ value: s, label: s })) }
              : spec
          }
          value={values[spec.name]}
          error={errors[spec.name]}
          onChange={(v) => onChange(spec.name, v)}
          deviceTags={deviceTags}
        />
      ))}
    </Box>
  );
}

interface FieldProps {
  spec: ViewFieldSpec;
  value: ViewFieldValue | undefined;
  error?: string;
  onChange(value: ViewFieldValue): void;
  deviceTags?: readonly string[];
}

function Field({ spec, value, error, onChange, deviceTags }: FieldProps) {
  const text = typeof value === 'string' ? value : '';
  const list = Array.isArray(value) ? value : [];
  switch (spec.kind) {
    case 'icon':
      return <IconPicker label={spec.label} value={text} onChange={onChange} />;
    case 'switch':
      return (
        <FormControlLabel
          control={<Switch checked={value === true} onChange={(e) => onChange(e.target.checked)} />}
          label={spec.label}
        />
      );
    case 'select':
      return (
        <TextField
          select
          size="small"
          label={spec.label}
          value={text}
          helperText={spec.helper}
          onChange={(e) => onChange(e.target.value)}
        >
          <MenuItem value="">
            <em>-</em>
          </MenuItem>
          {/* a stored value the list no longer offers (a hand-written view, an older list) stays visible and kept */}
          {[
            ...(spec.options ?? []),
            ...(text && !spec.options?.some((o) => o.value === text) ? [{ value: text, label: text }] : []),
          ].map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      );
    case 'colors':
      return (
        <Box sx={{ gridColumn: '1 / -1' }}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {spec.label}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
            {list.map((color, i) => (
              <Stack
                key={i}
                direction="row"
                sx={{ alignItems: 'center', border: 1, borderColor: 'divider', borderRadius: 1, pl: 0.5 }}
              >
                <input
                  type="color"
                  aria-label={`${spec.label} ${i + 1}`}
                  value={color}
                  onChange={(e) => onChange(list.map((c, j) => (j === i ? e.target.value : c)))}
                  style={{ width: 32, height: 28, border: 'none', background: 'none', padding: 0 }}
                />
                <IconButton
                  size="small"
                  aria-label={T.common.cancel}
                  onClick={() => onChange(list.filter((_, j) => j !== i))}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              </Stack>
            ))}
            <Button size="small" onClick={() => onChange([...list, DEFAULT_COLOR])}>
              {T.dashboards.view.addColor}
            </Button>
          </Stack>
        </Box>
      );
    case 'devices':
      // found on the server by name, serial number or id, like every device picker
      return (
        <DevicesPicker
          label={spec.label}
          value={list}
          tags={deviceTags}
          onChange={onChange}
          sx={{ gridColumn: '1 / -1' }}
        />
      );
    default:
      return (
        <TextField
          size="small"
          label={spec.label}
          value={text}
          error={!!error}
          helperText={error ?? spec.helper}
          onChange={(e) => onChange(e.target.value)}
          slotProps={{ htmlInput: spec.kind === 'number' ? { inputMode: 'decimal' } : {} }}
        />
      );
  }
}
