// A small dialog holding a form: its title, its fields, "Batal" and the submit (FormActions). It cannot be closed
// while a save runs; `overlay` draws the loading overlay over it then (dialogs that save themselves).
import type { FormEvent, ReactNode } from 'react';
import { Dialog, DialogContent, DialogTitle } from '@mui/material';
import { FormActions } from './FormActions.js';
import { LoadingOverlay } from './LoadingOverlay.js';

export interface FormDialogProps {
  open: boolean;
  title: ReactNode;
  busy: boolean;
  onClose(): void;
  onSubmit(e: FormEvent): void;
  /** the submit's text; "Simpan" by default */
  submitLabel?: string;
  overlay?: boolean;
  children: ReactNode;
}

export function FormDialog({
  open,
  title,
  busy,
  onClose,
  onSubmit,
  submitLabel,
  overlay = true,
  children,
}: FormDialogProps) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth>
      <form onSubmit={onSubmit} noValidate style={overlay ? { position: 'relative' } : undefined}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <FormActions onCancel={onClose} busy={busy} label={submitLabel} dialog />
        {overlay && <LoadingOverlay open={busy} />}
      </form>
    </Dialog>
  );
}
