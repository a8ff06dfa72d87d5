// The buttons closing a form: "Batal" then its submit button ("Simpan" unless a form names it), right-aligned on a page
// or as a dialog's actions. Both wait for a running save; the submit also waits for whatever `blocked` names.
import type { ReactNode } from 'react';
import { Button, DialogActions, Stack } from '@mui/material';
import { T } from '@sentra/contracts';

export interface FormActionsProps {
  onCancel(): void;
  /** a save runs: both buttons wait */
  busy: boolean;
  /** the submit waits too (the record not loaded yet, nothing chosen) */
  blocked?: boolean;
  /** the cancel's own wait when it differs from `busy` */
  cancelBusy?: boolean;
  /** the submit's text; "Simpan" by default */
  label?: string;
  /** buttons between the two (a wizard's "Kembali") */
  between?: ReactNode;
  /** false: no submit (nothing to submit yet) */
  submit?: boolean;
  /** inside a dialog: the dialog's actions instead of a row */
  dialog?: boolean;
  spacing?: number;
  mt?: number;
}

export function FormActions({
  onCancel,
  busy,
  blocked = false,
  cancelBusy = busy,
  label = T.common.save,
  between,
  submit = true,
  dialog = false,
  spacing = 2,
  mt = 3,
}: FormActionsProps) {
  const buttons = (
    <>
      <Button onClick={onCancel} disabled={cancelBusy}>
        {T.common.cancel}
      </Button>
      {between}
      {submit && (
        <Button type="submit" variant="contained" disabled={busy || blocked}>
          {label}
        </Button>
      )}
    </>
  );
  if (dialog) return <DialogActions>{buttons}</DialogActions>;
  return (
    <Stack direction="row" spacing={spacing} sx={{ mt, justifyContent: 'flex-end' }}>
      {buttons}
    </Stack>
  );
}
