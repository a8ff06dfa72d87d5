// The one device picker of the console (rule wizard, query editor, variables, the Visualisasi devices field): a
// searchable list asking the server for the whole application's devices by name, serial number or id as the user
// types (device/pick), chosen with the mouse or the keyboard (arrows, Enter). One page is shown at a time; a line
// under it says how many more there are and that typing narrows them.
import { createContext, useContext, useMemo, useState, type HTMLAttributes, type Key, type ReactNode } from 'react';
import { Autocomplete, Box, Paper, TextField, Typography, type PaperProps } from '@mui/material';
import { T, type DeviceChoice } from '@sentra/contracts';
import { deviceDetail } from './devicePicker/deviceSearch.js';
import { useDeviceSearch, useHeldDevices } from './devicePicker/useDeviceSearch.js';

export type { DeviceChoice };

const MoreDevices = createContext<string | undefined>(undefined);

/** The list's paper with the "N dari M perangkat" line under the options when the page is not all of them. */
function PickerPaper({ children, ...rest }: PaperProps) {
  const more = useContext(MoreDevices);
  return (
    <Paper {...rest}>
      {children}
      {more && (
        <Typography
          variant="caption"
          color="text.secondary"
          component="div"
          data-testid="device-picker-more"
          // a pointer press here must not blur the input (which would close the list)
          onMouseDown={(e) => e.preventDefault()}
          sx={{ px: 2, py: 1, borderTop: 1, borderColor: 'divider' }}
        >
          {more}
        </Typography>
      )}
    </Paper>
  );
}

const idOf = (value: string | undefined) => (value && /^\d+$/.test(value) ? Number(value) : undefined);
/** a held id no device of the application answers to (removed since): shown by its id, still held */
const unknownDevice = (id: number): DeviceChoice => ({
  id,
  name: `#${id}`,
  label: `#${id}`,
  serial_number: '',
  category: 0,
  deviceType: '',
  online: false,
});

function renderDevice(props: HTMLAttributes<HTMLLIElement> & { key: Key }, d: DeviceChoice): ReactNode {
  const { key, ...rest } = props;
  return (
    <Box component="li" key={key} {...rest} data-testid="device-option">
      <Box>
        <Typography variant="body2">{d.label}</Typography>
        <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
          {deviceDetail(d)}
        </Typography>
      </Box>
    </Box>
  );
}

/** The search state both pickers share: what is typed (not the held device's name the input shows), open or not. */
function useTypedSearch(tags?: readonly string[]) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const found = useDeviceSearch(open, text, tags);
  const more = found.total > found.devices.length ? T.common.moreDevices(found.devices.length, found.total) : undefined;
  return {
    found,
    more,
    autocomplete: {
      open,
      onOpen: () => setOpen(true),
      onClose: () => (setOpen(false), setText('')),
      // the input shows the held device's name after a choice or a blur ('reset'): that is no search
      onInputChange: (_e: unknown, v: string, reason: string) => setText(reason === 'input' ? v : ''),
      options: found.devices,
      loading: found.loading,
      loadingText: T.common.searchingDevices,
      noOptionsText: T.common.noDeviceFound,
      filterOptions: (o: DeviceChoice[]) => o,
      getOptionLabel: (d: DeviceChoice) => d.label,
      getOptionKey: (d: DeviceChoice) => d.id,
      isOptionEqualToValue: (o: DeviceChoice, v: DeviceChoice) => o.id === v.id,
      autoHighlight: true,
      openOnFocus: true,
      renderOption: renderDevice,
      slots: { paper: PickerPaper },
    },
  };
}

export interface DevicePickerProps {
  label: string;
  /** the held device's id, as the editors keep it (text); '' or undefined: none */
  value: string | undefined;
  onChange(value: string, device: DeviceChoice): void;
  onBlur?(): void;
  required?: boolean;
  error?: string;
  helperText?: string;
  id?: string;
  /** only devices carrying one of these tags (a card's tags) */
  tags?: readonly string[];
  disabled?: boolean;
  /** the input's accessible name when the label is not enough (a trigger row's "Nilai baris 1") */
  ariaLabel?: string;
}

export function DevicePicker(props: DevicePickerProps) {
  const { label, value, onChange, onBlur, required, error, helperText, id, tags, disabled, ariaLabel } = props;
  const heldId = idOf(value);
  const [held] = useHeldDevices(heldId === undefined ? [] : [heldId]);
  const { autocomplete, more } = useTypedSearch(tags);
  const selected = useMemo(() => (heldId === undefined ? null : (held ?? unknownDevice(heldId))), [heldId, held]);
  return (
    <MoreDevices.Provider value={more}>
      <Autocomplete<DeviceChoice, false, false, false>
        {...autocomplete}
        id={id}
        size="small"
        fullWidth
        disabled={disabled}
        value={selected}
        onChange={(_e, d) => d && onChange(String(d.id), d)}
        onBlur={onBlur}
        renderInput={(params) => (
          <TextField
            {...params}
            label={label}
            required={required}
            error={Boolean(error)}
            helperText={error ?? helperText}
            placeholder={T.common.searchDevice}
            slotProps={{ htmlInput: { ...params.inputProps, ...(ariaLabel ? { 'aria-label': ariaLabel } : {}) } }}
          />
        )}
      />
    </MoreDevices.Provider>
  );
}

export interface DevicesPickerProps {
  label: string;
  /** the held devices' ids (text) */
  value: readonly string[];
  onChange(value: string[]): void;
  tags?: readonly string[];
  sx?: object;
}

/** Several devices (the Visualisasi devices field): the same search, each choice a chip. */
export function DevicesPicker({ label, value, onChange, tags, sx }: DevicesPickerProps) {
  const ids = value.map(idOf).filter((n): n is number => n !== undefined);
  const held = useHeldDevices(ids);
  const { autocomplete, more } = useTypedSearch(tags);
  // a new array each render would read as a new value, and the autocomplete would clear what is being typed
  const heldKey = held.map((d, i) => d?.id ?? `?${ids[i]}`).join(',');
  const chosen = useMemo(() => ids.map((id, i) => held[i] ?? unknownDevice(id)), [heldKey]);
  return (
    <MoreDevices.Provider value={more}>
      <Autocomplete<DeviceChoice, true, false, false>
        {...autocomplete}
        multiple
        size="small"
        sx={sx}
        disableCloseOnSelect
        value={chosen}
        onChange={(_e, list) => onChange(list.map((d) => String(d.id)))}
        renderInput={(params) => <TextField {...params} label={label} placeholder={T.common.searchDevice} />}
      />
    </MoreDevices.Provider>
  );
}
