// The scaffolding of the list screens that show one card per record (applications, users, credentials, dashboards):
// the heading with its "add" button, the empty text once the list loaded empty, the screen's cards and menus, and the
// loading overlay over all of it.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Button, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { ListHeading } from './PagedTable.js';
import { LoadingOverlay } from './LoadingOverlay.js';

export interface CardListPageProps {
  title: string;
  subtitle: string;
  /** the "add" button: where it leads and its text */
  add: { to: string; label: string };
  /** the text shown when the loaded list is empty */
  emptyText: string;
  /** the list as loaded, null until then */
  items: readonly unknown[] | null;
  /** work on the cards (a delete): the overlay shows */
  busy?: boolean;
  /** the grid of cards and the screen's menus */
  children: ReactNode;
}

export function CardListPage({ title, subtitle, add, emptyText, items, busy = false, children }: CardListPageProps) {
  return (
    <Box sx={{ position: 'relative', minHeight: 200 }}>
      <ListHeading
        title={title}
        subtitle={subtitle}
        mb={3}
        action={
          <Button component={RouterLink} to={add.to} variant="contained" startIcon={<AddIcon />}>
            {add.label}
          </Button>
        }
      />
      {items?.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
          {emptyText}
        </Typography>
      )}
      {children}
      <LoadingOverlay open={items === null || busy} />
    </Box>
  );
}
