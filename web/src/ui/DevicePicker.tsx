// The one device picker of the console's editors: a searchable list (MUI Autocomplete) matching what a user types
// against the device's name, serial number and id, so an application with hundreds of devices is not one long menu.
import { Autocomplete, Box, TextField, Typography, createFilterOptions } from '@mui/material';
import { T } from '@sentra/contracts';

export interface DeviceChoice {
  /** the device id, as the editors keep it */
  value: string;
  label: string;
  serial?: string;
}

/** What a device is found by: its name, serial number and id (case and accents ignored by the filter). */
export const deviceSearchText = (d: DeviceChoice) => [d.label, d.serial ?? '', d.value].join(' ');
export const filterDevices = createFilterOptions<DeviceChoice>({
  stringify: deviceSearchText,
  ignoreAccents: true,
  ignoreCase: true,
  limit: 200,
});

export interface DevicePickerProps {
  label: string;
  options: readonly DeviceChoice[];
  value: string | undefined;
  onChange(value: string): void;
  onBlur?(): void;
  required?: boolean;
  error?: string;
  id?: string;
}

export function DevicePicker({ label, options, value, onChange, onBlur, required, error, id }: DevicePickerProps) {
  const selected = options.find((o) => o.value === value) ?? null;
  return (
    <Autocomplete
      id={id}
      size="small"
      fullWidth
      options={options}
      value={selected}
      filterOptions={filterDevices}
      getOptionLabel={(o) => o.label}
      getOptionKey={(o) => o.value}
      isOptionEqualToValue={(o, v) => o.value === v.value}
      noOptionsText={T.common.noDeviceFound}
      onChange={(_e, o) => o && onChange(o.value)}
      onBlur={onBlur}
      renderOption={(props, o) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <Box component="li" key={key} {...rest} data-testid="device-option">
            <Box>
              <Typography variant="body2">{o.label}</Typography>
              <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                {o.serial ? `${o.serial} · #${o.value}` : `#${o.value}`}
              </Typography>
            </Box>
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          error={Boolean(error)}
          helperText={error}
          placeholder={T.common.searchDevice}
        />
      )}
    />
  );
}
