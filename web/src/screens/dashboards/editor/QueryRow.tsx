// One query of the card in the component editor: its role, what it reads ("LATEST · Panel A / pm / meter / energy"),
// its message, and the buttons that open the query editor or clear it.
import { Box, Button, Stack, Typography } from '@mui/material';
import { QUERY_FUNCTIONS, T, type QueryEntityInput } from '@sentra/contracts';
import type { QuerySlot } from './componentEditor.js';
import type { SelectionSource } from './selectionSource.js';

const e = T.dashboards.editor;

/** One query of the card: its role, what it reads, and the buttons opening the query editor. */
export function QueryRow(props: {
  slot: QuerySlot;
  query: QueryEntityInput | undefined;
  source: SelectionSource;
  error?: string;
  onEdit(): void;
  onClear(): void;
}) {
  const { slot, query, source, error } = props;
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ alignItems: { sm: 'center' } }}
      data-testid={`query-row-${slot.role}`}
    >
      <Box sx={{ minWidth: 160 }}>
        <Typography sx={{ fontWeight: 600 }}>
          {e.roles[slot.role]}{' '}
          {!slot.required && (
            <Typography component="span" variant="caption" color="text.secondary">
              {e.optional}
            </Typography>
          )}
        </Typography>
      </Box>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography
          variant="body2"
          sx={{ fontFamily: query ? 'monospace' : undefined }}
          color={query ? 'text.primary' : 'text.secondary'}
        >
          {query ? describeQuery(query, source) : e.noQuery}
        </Typography>
        {error && (
          <Typography variant="body2" color="error">
            {error}
          </Typography>
        )}
      </Box>
      <Stack direction="row" spacing={1}>
        {query && (
          <Button size="small" color="inherit" onClick={props.onClear}>
            {e.clearQuery}
          </Button>
        )}
        <Button
          size="small"
          variant="outlined"
          onClick={props.onEdit}
          aria-label={`${e.setQuery} ${e.roles[slot.role]}`}
        >
          {e.setQuery}
        </Button>
      </Stack>
    </Stack>
  );
}

/** "LATEST · Panel A / pm / meter / voltage / r": the function, then the chosen path or expression. */
export function describeQuery(query: QueryEntityInput, source: SelectionSource): string {
  const device =
    query.device_id === undefined
      ? undefined
      : (source.devices_label[String(query.device_id)] ?? String(query.device_id));
  const sub = Array.isArray(query.subparam) ? query.subparam.join(', ') : query.subparam;
  const path = [device, query.sensor, query.config, query.param, sub]
    .filter((p) => p !== undefined && p !== '')
    .join(' / ');
  const detail = query.condition ?? (query.tags ? query.tags.join(', ') : path);
  const fn = query.query ? QUERY_FUNCTIONS[query.query] : query.queryType;
  return [fn, detail].filter(Boolean).join(' · ');
}
