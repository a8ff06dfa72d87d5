// "Tambah Tag" (spec 03 sections 2.8, 5, 9): label (1–32), key (optional, ≤ 32, no capitals, no spaces; derived from
// the label when empty), type Single or Multi, and for Single its input: Single Selection (1), Single Checkbox (3) or
// Single Value (2); Multi is 4. "Tambah Penanda Sukses" returns to the list.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  Box,
  Card,
  CardContent,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  InputLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { z } from 'zod';
import { T, TAG_LABEL_MAX, TAG_TYPE_TEXT, TagType, keyFromLabel, tagKey } from '@sentra/contracts';
import { fieldErrorsOf, type FieldErrors, editedValue, errorShown } from '../../ui/forms.js';
import { notices } from '../../ui/snackbar/notices.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { DeviceCallError } from '../devices/deviceCalls.js';
import { addTagCategory, tagKeyTaken } from './tagCalls.js';
import { FormActions } from '../../ui/FormActions.js';

type Kind = 'single' | 'multi';
const SINGLE_INPUTS = [TagType.SELECTION, TagType.CHECKBOX, TagType.VALUE] as const;

const schema = z.object({
  name: z.string().trim().min(1, T.common.required).max(TAG_LABEL_MAX, T.common.max(TAG_LABEL_MAX)),
  prefix: tagKey,
});

/** The category code of the form's type and input (spec 03 section 9). */
export const categoryOf = (kind: Kind, input: number | '') => (kind === 'multi' ? TagType.MULTI : input);

export function TagAddPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [kind, setKind] = useState<Kind>('single');
  const [input, setInput] = useState<number | ''>('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const clear = (field: string) => setErrors(({ [field]: _gone, ...rest }) => rest);

  const checkKey = async () => {
    const k = key.trim() || keyFromLabel(name);
    if (k && schema.shape.prefix.safeParse(k).success && (await tagKeyTaken(k)))
      setErrors((e) => ({ ...e, prefix: T.tags.keyTakenNow }));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = schema.safeParse({ name, prefix: key.trim() });
    const problems: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
    const category = categoryOf(kind, input);
    if (category === '') problems.category = T.common.required;
    setErrors(problems);
    if (Object.keys(problems).length || category === '') return;
    setBusy(true);
    try {
      await addTagCategory({ name: name.trim(), ...(key.trim() ? { prefix: key.trim() } : {}), category });
      notices.success(T.tags.addSuccess);
      navigate(area.to('_tag_list_'));
    } catch (err) {
      if (err instanceof DeviceCallError) setErrors(err.fieldErrors);
      notices.error(err instanceof DeviceCallError ? err.message : T.tags.addFailed);
      setBusy(false);
    }
  };

  return (
    <Box sx={{ maxWidth: 560 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700, mb: 2 }}>
        {T.tags.addTitle}
      </Typography>
      <Card variant="outlined" sx={{ position: 'relative' }}>
        <CardContent component="form" noValidate onSubmit={submit}>
          <Stack spacing={2}>
            <TextField
              label={T.tags.label}
              {...editedValue(name, setName, () => clear('name'))}
              required
              disabled={busy}
              {...errorShown(errors.name)}
              slotProps={{ htmlInput: { maxLength: 64 } }}
            />
            <TextField
              label={T.tags.key}
              {...editedValue(key, setKey, () => clear('prefix'))}
              disabled={busy}
              placeholder={keyFromLabel(name)}
              {...errorShown(errors.prefix, T.tags.keyHelp)}
              onBlur={() => void checkKey()}
            />
            <FormControl disabled={busy}>
              <FormLabel id="tag-type">{T.tags.type}</FormLabel>
              <RadioGroup
                row
                aria-labelledby="tag-type"
                value={kind}
                onChange={(e) => {
                  setKind(e.target.value as Kind);
                  clear('category');
                }}
              >
                <FormControlLabel value="single" control={<Radio />} label={T.tags.typeSingle} />
                <FormControlLabel value="multi" control={<Radio />} label={T.tags.typeMulti} />
              </RadioGroup>
            </FormControl>
            {kind === 'single' && (
              <FormControl required disabled={busy} error={Boolean(errors.category)}>
                <InputLabel id="tag-input">{T.tags.input}</InputLabel>
                <Select
                  labelId="tag-input"
                  label={T.tags.input}
                  value={input === '' ? '' : String(input)}
                  onChange={(e) => {
                    setInput(Number(e.target.value));
                    clear('category');
                  }}
                >
                  {SINGLE_INPUTS.map((c) => (
                    <MenuItem key={c} value={String(c)}>
                      {TAG_TYPE_TEXT[c]}
                    </MenuItem>
                  ))}
                </Select>
                {errors.category && <FormHelperText>{errors.category}</FormHelperText>}
              </FormControl>
            )}
          </Stack>
          <FormActions onCancel={() => navigate(area.to('_tag_list_'))} busy={busy} spacing={1} />
        </CardContent>
        <LoadingOverlay open={busy} />
      </Card>
    </Box>
  );
}
