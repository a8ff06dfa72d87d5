// The card of an edit form: its fields, then "Batal" and "Simpan" on the right, under a loading overlay while the record
// loads or the form saves. Save waits for the record (`canSave`) and both buttons wait for a running save.
import type { FormEvent, ReactNode } from 'react';
import { Card, CardContent } from '@mui/material';
import { FormActions } from './FormActions.js';
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
        <FormActions onCancel={onCancel} busy={busy} blocked={!canSave} spacing={1} />
      </CardContent>
      <LoadingOverlay open={loading || busy} />
    </Card>
  );
}
