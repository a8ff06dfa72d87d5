// One input per chosen tag category (spec 03 sections 2.2 tag step, 2.7 tag value edit, 5): a selection of the
// category's options, a free value, a checkbox, or multi-value tags typed and separated with Tab, Enter or space
// (at most 3, unique, each checked with the section 5 messages as it is typed and as it is added). The device screens
// and a sensor row's "Edit Perangkat" dialog both use it.
import { useState, type KeyboardEvent } from 'react';
import {
  Box,
  Checkbox,
  Chip,
  FormControl,
  FormControlLabel,
  FormHelperText,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { T, TagType, type TagCategory } from '@sentra/contracts';
import { multiTagProblem, type TagValues } from './tagValues.js';

export interface TagValueFieldsProps {
  categories: readonly TagCategory[];
  chosen: readonly string[];
  values: TagValues;
  errors: Record<string, string>;
  disabled?: boolean;
  /** every shown category may stay empty (a selection offers '-'): where no category choice comes first */
  optional?: boolean;
  onChange(prefix: string, values: string[]): void;
}

export function TagValueFields({
  categories,
  chosen,
  values,
  errors,
  disabled,
  optional,
  onChange,
}: TagValueFieldsProps) {
  return (
    <Stack spacing={2.5}>
      {chosen.map((prefix) => {
        const cat = categories.find((c) => c.prefix === prefix);
        if (!cat) return null;
        const current = values[prefix] ?? [];
        const error = errors[prefix];
        const fieldId = `tag-${prefix}`;
        switch (cat.category) {
          case TagType.SELECTION:
            return (
              <FormControl key={prefix} fullWidth error={Boolean(error)} disabled={disabled}>
                <InputLabel id={`${fieldId}-label`}>{cat.name}</InputLabel>
                <Select
                  labelId={`${fieldId}-label`}
                  label={cat.name}
                  value={current[0] ?? ''}
                  onChange={(e) => onChange(prefix, e.target.value ? [String(e.target.value)] : [])}
                >
                  {optional && <MenuItem value="">-</MenuItem>}
                  {cat.definitions.map((d) => (
                    <MenuItem key={d.name_lc} value={d.name_lc}>
                      {d.name}
                    </MenuItem>
                  ))}
                </Select>
                {error && <FormHelperText>{error}</FormHelperText>}
              </FormControl>
            );
          case TagType.VALUE:
            return (
              <TextField
                key={prefix}
                id={fieldId}
                label={cat.name}
                value={current[0] ?? ''}
                disabled={disabled}
                error={Boolean(error)}
                helperText={error}
                onChange={(e) => onChange(prefix, e.target.value ? [e.target.value] : [])}
                slotProps={{ htmlInput: { maxLength: 32 } }}
                fullWidth
              />
            );
          case TagType.CHECKBOX:
            return (
              <FormControlLabel
                key={prefix}
                disabled={disabled}
                control={
                  <Checkbox
                    checked={current[0] === 'true'}
                    onChange={(e) => onChange(prefix, [e.target.checked ? 'true' : 'false'])}
                  />
                }
                label={cat.name}
              />
            );
          default:
            return (
              <MultiTagInput
                key={prefix}
                category={cat}
                values={current}
                error={error}
                disabled={disabled}
                onChange={(v) => onChange(prefix, v)}
              />
            );
        }
      })}
    </Stack>
  );
}

const SEPARATORS = new Set(['Enter', 'Tab', ' ']);

function MultiTagInput({
  category,
  values,
  error,
  disabled,
  onChange,
}: {
  category: TagCategory;
  values: string[];
  error?: string;
  disabled?: boolean;
  onChange(v: string[]): void;
}) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = (): boolean => {
    const tag = text.trim();
    if (!tag) return false;
    const p = multiTagProblem(tag, values);
    setProblem(p);
    if (p) return true;
    onChange([...values, tag]);
    setText('');
    return true;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (SEPARATORS.has(e.key)) {
      // Tab with nothing typed moves focus as usual
      if (add() || e.key !== 'Tab') e.preventDefault();
    } else if (e.key === 'Backspace' && text === '' && values.length) onChange(values.slice(0, -1));
  };
  const shown = problem ?? error;
  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        {category.name}
      </Typography>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap', mb: values.length ? 1 : 0 }}
        data-testid={`tags-${category.prefix}`}
      >
        {values.map((v) => (
          <Chip key={v} label={v} disabled={disabled} onDelete={() => onChange(values.filter((x) => x !== v))} />
        ))}
      </Stack>
      <TextField
        fullWidth
        size="small"
        disabled={disabled}
        value={text}
        placeholder={T.devices.tagValuePlaceholder}
        error={Boolean(shown)}
        helperText={shown ?? T.tags.hint}
        onChange={(e) => {
          setText(e.target.value);
          // the section 5 messages while typing, not only once the tag is added
          const typed = e.target.value.trim();
          setProblem(typed ? multiTagProblem(typed, values) : null);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => void add()}
        slotProps={{ htmlInput: { 'aria-label': category.name, 'data-testid': `tag-input-${category.prefix}` } }}
      />
    </Box>
  );
}
