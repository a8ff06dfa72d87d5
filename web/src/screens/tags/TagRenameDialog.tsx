// Renaming a tag category or one of its options: only the label changes (the key and the type are what devices' tag
// maps hold, so they stay and are shown read-only); the label follows the add form's rule (1-32 characters).
import { useEffect, useState } from 'react';
import { Stack, TextField } from '@mui/material';
import { T, TAG_LABEL_MAX } from '@sentra/contracts';
import { DeviceCallError } from '../devices/deviceCalls.js';
import { FormDialog } from '../../ui/FormDialog.js';

export interface RenameTarget {
  title: string;
  /** the key it is stored under (read-only) */
  keyText: string;
  name: string;
  save(name: string): Promise<void>;
}

export function labelError(name: string): string | undefined {
  const v = name.trim();
  if (!v) return T.common.required;
  if (v.length > TAG_LABEL_MAX) return T.common.max(TAG_LABEL_MAX);
  return undefined;
}

export function TagRenameDialog({
  target,
  onClose,
  onSaved,
}: {
  target: RenameTarget | null;
  onClose(): void;
  onSaved(): void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setName(target?.name ?? '');
    setError(undefined);
  }, [target]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!target) return;
    const invalid = labelError(name);
    if (invalid) return setError(invalid);
    setBusy(true);
    try {
      await target.save(name.trim());
      onSaved();
    } catch (err) {
      setError(err instanceof DeviceCallError ? (err.fieldErrors.name ?? err.message) : T.tags.editFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog open={target !== null} title={target?.title} busy={busy} onClose={onClose} onSubmit={submit}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label={T.tags.keyLabel}
          value={target?.keyText ?? ''}
          size="small"
          helperText={T.tags.keyFixed}
          slotProps={{ htmlInput: { readOnly: true, style: { fontFamily: 'monospace' } } }}
        />
        <TextField
          autoFocus
          label={T.tags.label}
          value={name}
          required
          disabled={busy}
          error={Boolean(error)}
          helperText={error ?? ' '}
          onChange={(e) => (setName(e.target.value), setError(undefined))}
        />
      </Stack>
    </FormDialog>
  );
}
