// The card of an edit form: its fields, then "Batal" and "Simpan" on the right, under a loading overlay while the record
// loads or the form saves. Save waits for the record (`canSave`) and both buttons wait for a running save.
import type { FormEvent, ReactNode } from 'react';
import { Button, Card, CardContent, Stack } from '@mui/material';
import { T } from '@sentra/contracts';
import { LoadingOverlay } from './LoadingOverlay.js';

export interface FormCardProps {
  onSubmit(e: FormEvent): void;
  onCancel(): void;
  busy: boolean;
  loading: boolean;
  canSave: boolean;
  children: ReactNode;
}

export function FormCard({ onSubmit, onCancel, busy, loading, canSave, children }: FormCardProps) {
  return (
    <Card variant="outlined" sx={{ position: 'relative' }}>
      <CardContent component="form" noValidate onSubmit={onSubmit}>
        {children}
        <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'flex-end' }}>
          <Button onClick={onCancel} disabled={busy}>
            {T.common.cancel}
          </Button>
          <Button type="submit" variant="contained" disabled={busy || !canSave}>
            {T.common.save}
          </Button>
        </Stack>
      </CardContent>
      <LoadingOverlay open={loading || busy} />
    </Card>
  );
}
