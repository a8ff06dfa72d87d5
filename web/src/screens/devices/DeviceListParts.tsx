// Parts of the device list (DeviceListPage): the tag filter, a row's tag chips and the "Alat Baru" bar.
import { Autocomplete, Box, Chip, Fab, Stack, TextField, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { T, type DeviceSummary, type TagCategory } from '@sentra/contracts';
import { splitTags } from './listState.js';
import { tagDisplay, type TagFilterOption } from './tagValues.js';

/**
 * "Alat Baru" floats in a bar of its own at the bottom of the window: rows scroll under the bar, never under the
 * button, so no row's menu is ever covered by it (at the end of the list the bar sits below the pager).
 */
export function AddDeviceBar({ onAdd }: { onAdd(): void }) {
  return (
    <Box
      data-testid="device-add-bar"
      sx={{
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
        display: 'flex',
        justifyContent: 'flex-end',
        mt: 2,
        mx: { xs: -2, sm: -3 },
        px: { xs: 2, sm: 3 },
        py: 2,
        bgcolor: 'background.default',
      }}
    >
      <Tooltip title={T.devices.newDeviceTooltip}>
        <Fab color="primary" variant="extended" onClick={onAdd} aria-label={T.devices.newDevice}>
          <AddIcon sx={{ mr: 1 }} />
          {T.devices.newDevice}
        </Fab>
      </Tooltip>
    </Box>
  );
}

/** One tag: a category's option picked from the list (searchable), or `prefix:value` typed for a free-value category. */
export function TagFilter({
  options,
  value,
  onChange,
}: {
  options: readonly TagFilterOption[];
  value: string;
  onChange(tag: string): void;
}) {
  const selected = options.find((o) => o.tag === value) ?? (value || null);
  return (
    <Autocomplete<TagFilterOption | string, false, false, true>
      freeSolo
      size="small"
      sx={{ minWidth: 240 }}
      options={options}
      groupBy={(o) => (typeof o === 'string' ? '' : o.group)}
      getOptionLabel={(o) => (typeof o === 'string' ? o : o.label)}
      isOptionEqualToValue={(o, v) => (typeof o === 'string' ? o : o.tag) === (typeof v === 'string' ? v : v.tag)}
      value={selected}
      onChange={(_e, v) => {
        const next = v === null ? '' : typeof v === 'string' ? v.trim() : v.tag;
        // typed text counts only as kunci:nilai (the server's form); anything else clears the filter
        onChange(/^[^:]+:.+$/.test(next) ? next : '');
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={T.devices.tagFilter}
          placeholder={T.devices.allTags}
          inputProps={{ ...params.inputProps, 'aria-label': T.devices.tagFilter, title: T.devices.tagFilterHint }}
        />
      )}
    />
  );
}

/** About 6 tag chips, the rest behind "+N" (its tooltip lists them). */
export function TagChips({ device, categories }: { device: DeviceSummary; categories: readonly TagCategory[] }) {
  const all = Object.entries(device.tags).flatMap(([prefix, values]) =>
    values.map((v) => ({ key: `${prefix}:${v}`, label: tagDisplay(categories, prefix, v) })),
  );
  const { shown, rest } = splitTags(all);
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="device-tags">
      {shown.map((t) => (
        <Chip key={t.key} size="small" label={t.label} />
      ))}
      {rest.length > 0 && (
        <Tooltip title={rest.map((t) => t.label).join(', ')}>
          <Chip size="small" color="primary" variant="outlined" label={T.devices.moreTags(rest.length)} />
        </Tooltip>
      )}
    </Stack>
  );
}
