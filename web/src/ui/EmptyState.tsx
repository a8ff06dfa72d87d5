// What a list shows when it has no rows: the spec's "Oopss..." title and a hint.
import { Box, Typography } from '@mui/material';
import InboxIcon from '@mui/icons-material/Inbox';

export function EmptyState({ title, hint }: { title: string; hint?: string }) {
  return (
    <Box data-testid="empty-state" sx={{ py: 8, px: 2, textAlign: 'center', color: 'text.secondary' }}>
      <InboxIcon sx={{ fontSize: 56, opacity: 0.4 }} />
      <Typography variant="h6" component="p" sx={{ mt: 1, color: 'text.primary' }}>
        {title}
      </Typography>
      {hint && <Typography variant="body2">{hint}</Typography>}
    </Box>
  );
}
