// The destination of a menu entry whose screen a later issue builds: clearly labelled, never a blank page.
import { Alert, AlertTitle, Box, Chip } from '@mui/material';
import { T } from '@sentra/contracts';
import type { ScreenProps } from '../../shell/routeRegistry.js';

export function NotBuiltPage({ routeKey }: ScreenProps) {
  return (
    <Box sx={{ maxWidth: 720 }} data-testid="not-built">
      <Alert severity="info" variant="outlined">
        <AlertTitle>{T.shell.notBuiltTitle}</AlertTitle>
        {T.shell.notBuiltBody}
        <Box sx={{ mt: 1 }}>
          <Chip size="small" label={routeKey} sx={{ fontFamily: 'monospace' }} />
        </Box>
      </Alert>
    </Box>
  );
}
