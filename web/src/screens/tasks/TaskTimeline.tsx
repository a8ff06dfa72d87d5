// Manage Task's timeline (task/timeline): what happened to the task, newest first — created, each occurrence, status
// changes and mutes with who made them, every notification as queued and each attempt to send it (with a failure's
// reason). A list of entries with a coloured marker; text wraps at any width.
import { Box, Card, CardContent, List, ListItem, Typography } from '@mui/material';
import { T, type TaskEvent } from '@sentra/contracts';
import { formatTs } from '../device-data/format.js';
import { timelineLine } from './taskConsole.js';

const S = T.taskScreens;

const MARKER: Record<string, string> = {
  default: 'grey.500',
  error: 'error.main',
  info: 'info.main',
  warning: 'warning.main',
  success: 'success.main',
};

export function TaskTimeline({ events }: { events: readonly TaskEvent[] | null }) {
  return (
    <Card variant="outlined" sx={{ mt: 3 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
          {S.timeline}
        </Typography>
        {events && events.length === 0 && <Typography color="text.secondary">{S.timelineEmpty}</Typography>}
        <List dense disablePadding aria-label={S.timeline} data-testid="task-timeline">
          {events?.map((e, i) => {
            const line = timelineLine(e);
            return (
              <ListItem
                key={i}
                disableGutters
                data-testid="task-timeline-entry"
                data-kind={e.kind}
                sx={{ alignItems: 'flex-start', gap: 1.5 }}
              >
                <Box
                  aria-hidden
                  sx={{
                    width: 10,
                    height: 10,
                    mt: 0.75,
                    borderRadius: '50%',
                    flexShrink: 0,
                    bgcolor: MARKER[line.color],
                  }}
                />
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" sx={{ overflowWrap: 'break-word' }}>
                    {line.text}
                  </Typography>
                  {line.detail && (
                    <Typography variant="caption" color="error" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                      {line.detail}
                    </Typography>
                  )}
                  <Typography variant="caption" color="text.secondary">
                    {formatTs(e.ts)}
                  </Typography>
                </Box>
              </ListItem>
            );
          })}
        </List>
      </CardContent>
    </Card>
  );
}
