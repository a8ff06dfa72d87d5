// The template picker of the add-application screen: one card per template type, a search and a type filter. The
// spec's picker was a stub; here the chosen template creates a dashboard in the new application (AddAppPage,
// contracts templateDashboard).
import { useMemo, useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { T, TEMPLATE_KINDS, type TemplateKind } from '@sentra/contracts';

export const TEMPLATE_TYPES = ['all', ...TEMPLATE_KINDS] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

export interface TemplateCard {
  id: string;
  type: TemplateKind;
  name: string;
}

/** One template per type. */
export const TEMPLATES: TemplateCard[] = TEMPLATE_KINDS.map((type) => ({
  id: type,
  type,
  name: T.templatePicker.templateName(T.templatePicker.types[type]),
}));

export function filterTemplates(cards: readonly TemplateCard[], search: string, type: TemplateType): TemplateCard[] {
  const q = search.trim().toLowerCase();
  return cards.filter((c) => (type === 'all' || c.type === type) && (!q || c.name.toLowerCase().includes(q)));
}

export function TemplatePicker({
  open,
  onClose,
  onChoose,
}: {
  open: boolean;
  onClose(): void;
  onChoose(card: TemplateCard): void;
}) {
  const [search, setSearch] = useState('');
  const [type, setType] = useState<TemplateType>('all');
  const cards = useMemo(() => filterTemplates(TEMPLATES, search, type), [search, type]);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{T.templatePicker.title}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 2, mb: 2, flexWrap: 'wrap' }}>
          <TextField
            size="small"
            label={T.templatePicker.search}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            sx={{ flex: 1, minWidth: 200 }}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon />
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField
            select
            size="small"
            label={T.templatePicker.type}
            value={type}
            onChange={(e) => setType(e.target.value as TemplateType)}
            sx={{ minWidth: 180 }}
          >
            {TEMPLATE_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {T.templatePicker.types[t]}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        {cards.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
            {T.templatePicker.empty}
          </Typography>
        )}
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' } }}>
          {cards.map((c) => (
            <Card key={c.id} variant="outlined">
              <CardActionArea onClick={() => onChoose(c)}>
                <Box sx={{ height: 72, bgcolor: 'action.hover' }} />
                <CardContent>
                  <Typography variant="subtitle2">{c.name}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {T.templatePicker.types[c.type]}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
      </DialogActions>
    </Dialog>
  );
}
