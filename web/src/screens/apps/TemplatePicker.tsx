// The template picker of the add-application screen: placeholder cards, a search and a type filter. A stub by the
// spec: the choice is shown on the form but never sent.
import { useMemo, useState } from 'react';
import {
  Box, Button, Card, CardActionArea, CardContent, Dialog, DialogActions, DialogContent, DialogTitle, InputAdornment, MenuItem, TextField, Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { T } from '@sentra/contracts';

export const TEMPLATE_TYPES = ['all', 'smart_city', 'factory', 'building', 'energy', 'agriculture', 'retail'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

export interface TemplateCard {
  id: string;
  type: Exclude<TemplateType, 'all'>;
  name: string;
}

/** Two placeholder cards per type. */
export const PLACEHOLDER_TEMPLATES: TemplateCard[] = TEMPLATE_TYPES.filter((t) => t !== 'all').flatMap((type) =>
  [1, 2].map((n) => ({ id: `${type}-${n}`, type: type as TemplateCard['type'], name: T.templatePicker.placeholder(T.templatePicker.types[type], n) })),
);

export function filterTemplates(cards: readonly TemplateCard[], search: string, type: TemplateType): TemplateCard[] {
  const q = search.trim().toLowerCase();
  return cards.filter((c) => (type === 'all' || c.type === type) && (!q || c.name.toLowerCase().includes(q)));
}

export function TemplatePicker({ open, onClose, onChoose }: { open: boolean; onClose(): void; onChoose(card: TemplateCard): void }) {
  const [search, setSearch] = useState('');
  const [type, setType] = useState<TemplateType>('all');
  const cards = useMemo(() => filterTemplates(PLACEHOLDER_TEMPLATES, search, type), [search, type]);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{T.templatePicker.title}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 2, mb: 2, flexWrap: 'wrap' }}>
          <TextField size="small" label={T.templatePicker.search} value={search} onChange={(e) => setSearch(e.target.value)} sx={{ flex: 1, minWidth: 200 }}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon /></InputAdornment> } }} />
          <TextField select size="small" label={T.templatePicker.type} value={type} onChange={(e) => setType(e.target.value as TemplateType)} sx={{ minWidth: 180 }}>
            {TEMPLATE_TYPES.map((t) => <MenuItem key={t} value={t}>{T.templatePicker.types[t]}</MenuItem>)}
          </TextField>
        </Box>
        {cards.length === 0 && <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>{T.templatePicker.empty}</Typography>}
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' } }}>
          {cards.map((c) => (
            <Card key={c.id} variant="outlined">
              <CardActionArea onClick={() => onChoose(c)}>
                <Box sx={{ height: 72, bgcolor: 'action.hover' }} />
                <CardContent>
                  <Typography variant="subtitle2">{c.name}</Typography>
                  <Typography variant="caption" color="text.secondary">{T.templatePicker.types[c.type]}</Typography>
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
