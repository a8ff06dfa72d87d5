// The card of a form screen (credentials, users, the role wizard): its title, the form under it, and the
// loading overlay over all of it while the form loads or saves. `PictureForm`: a form with a picture column (users,
// applications).
import type { FormEvent, ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { LoadingOverlay } from './LoadingOverlay.js';

export interface FormPageCardProps {
  title: ReactNode;
  maxWidth: number;
  /** the overlay shows */
  busy: boolean;
  children: ReactNode;
}

export function FormPageCard({ title, maxWidth, busy, children }: FormPageCardProps) {
  return (
    <Card sx={{ position: 'relative', maxWidth }}>
      <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 3 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
      <LoadingOverlay open={busy} />
    </Card>
  );
}

/** A form whose picture stands beside the fields from 768 px wide (`columns`: the grid's columns there), above them below. */
export function PictureForm({
  onSubmit,
  columns,
  children,
}: {
  onSubmit: (e: FormEvent) => void;
  columns: string;
  children: ReactNode;
}) {
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{
        display: 'grid',
        gap: 4,
        gridTemplateColumns: '1fr',
        '@media (min-width: 768px)': { gridTemplateColumns: columns },
      }}
    >
      {children}
    </Box>
  );
}
