// The add-option dialog of a single-selection tag category (spec 03 sections 2.8, 5, 8): option name and an optional
// key ("Kunci penanda tidak boleh mengandung huruf besar!" / "... spasi!"); -4 answers "Pilihan sudah terdaftar!".
import { useEffect, useState } from 'react';
import { Stack, TextField } from '@mui/material';
import { z } from 'zod';
import { T, TAG_LABEL_MAX, tagOptionKey, type TagCategory } from '@sentra/contracts';
import { fieldErrorsOf, type FieldErrors, editedValue, errorShown } from '../../ui/forms.js';
import { notices } from '../../ui/snackbar/notices.js';
import { DeviceCallError } from '../devices/deviceCalls.js';
import { addTagOption } from './tagCalls.js';
import { FormDialog } from '../../ui/FormDialog.js';

const schema = z.object({
  name: z.string().trim().min(1, T.common.required).max(TAG_LABEL_MAX, T.common.max(TAG_LABEL_MAX)),
  name_lc: tagOptionKey,
});

export function TagOptionDialog({
  category,
  onClose,
  onAdded,
}: {
  category: TagCategory | null;
  onClose(): void;
  onAdded(): void;
}) {
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setName('');
    setKey('');
    setErrors({});
  }, [category]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!category) return;
    const parsed = schema.safeParse({ name, name_lc: key.trim() });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setBusy(true);
    try {
      await addTagOption({
        name: name.trim(),
        prefix: category.prefix,
        ...(key.trim() ? { name_lc: key.trim() } : {}),
      });
      notices.success(T.tags.optionAddSuccess);
      onAdded();
    } catch (err) {
      if (err instanceof DeviceCallError) {
        setErrors(err.code === -4 ? { name: err.message } : err.fieldErrors);
        notices.error(err.message);
      } else notices.error(T.tags.optionAddFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={category !== null}
      title={T.tags.optionDialogTitle}
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label={category?.name ?? ''}
          value={category?.prefix ?? ''}
          slotProps={{ htmlInput: { readOnly: true } }}
          size="small"
        />
        <TextField
          autoFocus
          label={T.tags.optionName}
          {...editedValue(name, setName, () => setErrors({}))}
          required
          disabled={busy}
          {...errorShown(errors.name)}
        />
        <TextField
          label={T.tags.optionKey}
          {...editedValue(key, setKey, () => setErrors({}))}
          disabled={busy}
          {...errorShown(errors.name_lc, T.tags.optionKeyHelp)}
        />
      </Stack>
    </FormDialog>
  );
}
