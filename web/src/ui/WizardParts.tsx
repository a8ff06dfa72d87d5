// What the wizards' screens share around their steps: the load failure with its retry (role and rule wizards), and the
// form whose Enter moves the wizard on (those and the device wizard's info step).
import type { ReactNode } from 'react';
import { Alert, Box, Button, type SxProps, type Theme } from '@mui/material';
import { T } from '@sentra/contracts';

/** An edited record that could not be read: its error (else the generic one) and a retry. */
export function WizardLoadFailed({ error, onRetry }: { error?: string; onRetry: () => void }) {
  return (
    <Alert severity="error" action={<Button onClick={onRetry}>{T.shell.retry}</Button>}>
      {error ?? T.shell.loadFailed}
    </Alert>
  );
}

/** The steps' form: submitting (Enter) calls `onSubmit` instead of leaving the page. */
export function WizardForm({
  onSubmit,
  sx,
  children,
}: {
  onSubmit: () => void;
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      sx={sx}
    >
      {children}
    </Box>
  );
}
