// Entry of the Sentra console: theme, notifications, the confirm dialog and the router.
import './zodConfig.js'; // first: zod's settings apply to schemas made after them
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { theme } from './ui/theme.js';
import { SnackbarHost } from './ui/snackbar/SnackbarHost.js';
import { ConfirmProvider } from './ui/ConfirmDialog.js';
import { router } from './shell/router.js';
import { preloadRouteWithin } from './shell/preloadRoute.js';

// the page's chunks first (at most 1 s), so it mounts without a loading fallback (shell/preloadRoute.ts); not a
// top-level await, which made Rollup split the entry into many small chunks
void preloadRouteWithin(window.location.pathname, 1000).then(() =>
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
  ),
);
