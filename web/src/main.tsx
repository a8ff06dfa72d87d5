// Entry of the Sentra console: theme, notifications, the confirm dialog and the router.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { theme } from './ui/theme.js';
import { SnackbarHost } from './ui/snackbar/SnackbarHost.js';
import { ConfirmProvider } from './ui/ConfirmDialog.js';
import { router } from './shell/router.js';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ConfirmProvider>
        <RouterProvider router={router} />
      </ConfirmProvider>
      <SnackbarHost />
    </ThemeProvider>
  </StrictMode>,
);
