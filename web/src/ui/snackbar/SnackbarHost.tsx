// Draws the notification queue at the top right; each notice closes itself after a few seconds or on its close button.
import { useEffect, useSyncExternalStore } from 'react';
import { Alert, Box, Slide } from '@mui/material';
import { notices } from './notices.js';
import type { Notice } from './queue.js';

export const AUTO_HIDE_MS = 5000;

function NoticeItem({ notice }: { notice: Notice }) {
  // a renewal (the same message pushed again) starts the time over
  useEffect(() => {
    const t = setTimeout(() => notices.dismiss(notice.id), AUTO_HIDE_MS);
    return () => clearTimeout(t);
  }, [notice.id, notice.renewals]);
  return (
    <Slide direction="left" in mountOnEnter>
      <Alert
        variant="filled"
        severity={notice.level}
        onClose={() => notices.dismiss(notice.id)}
        role="alert"
        data-testid="notice"
        sx={{ minWidth: 288, maxWidth: 420, boxShadow: 3 }}
      >
        {notice.message}
      </Alert>
    </Slide>
  );
}

export function SnackbarHost() {
  const shown = useSyncExternalStore(notices.subscribe, notices.snapshot, notices.snapshot);
  return (
    <Box
      sx={{
        position: 'fixed',
        top: 16,
        right: 16,
        zIndex: (t) => t.zIndex.snackbar,
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
      }}
    >
      {shown.map((n) => (
        <NoticeItem key={n.id} notice={n} />
      ))}
    </Box>
  );
}
