// The Visualisasi dialog's icon field (`view.pict`): the card icons (cards/common/icons.tsx) as a grid of buttons, each
// named in Indonesian, "Otomatis" for the icon of the card's unit, and a picture address for an icon of one's own.
import { Box, TextField, ToggleButton, ToggleButtonGroup, Tooltip, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { CardIcon, ICONS, isPictureAddress } from '../../../cards/common/icons.js';

const v = T.dashboards.view;

/** One name per icon (temperature and thermostat are one picture), in the catalogue's order. */
export const PICKER_ICONS: readonly string[] = Object.keys(ICONS).filter(
  (name, i, all) => all.findIndex((other) => ICONS[other] === ICONS[name]) === i,
);

export const iconName = (name: string) => v.iconNames[name] ?? name;

export function IconPicker({ label, value, onChange }: { label: string; value: string; onChange(v: string): void }) {
  const address = isPictureAddress(value.trim());
  const chosen = address ? null : value.trim().toLowerCase();
  return (
    <Box sx={{ gridColumn: '1 / -1' }} data-testid="icon-picker">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {label}
      </Typography>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={chosen ?? undefined}
        onChange={(_, name: string | null) => name !== null && onChange(name)}
        aria-label={label}
        sx={{
          flexWrap: 'wrap',
          gap: 0.5,
          '& .MuiToggleButtonGroup-grouped': { border: 1, borderColor: 'divider', borderRadius: 1 },
        }}
      >
        <ToggleButton value="" aria-label={v.iconAuto} sx={{ px: 1.25, textTransform: 'none' }}>
          <Tooltip title={v.iconAutoHelp}>
            <span>{v.iconAuto}</span>
          </Tooltip>
        </ToggleButton>
        {PICKER_ICONS.map((name) => (
          <ToggleButton key={name} value={name} aria-label={iconName(name)} sx={{ width: 40, height: 40 }}>
            <Tooltip title={iconName(name)}>
              <Box sx={{ display: 'flex' }}>
                <CardIcon pict={name} size={22} color="inherit" />
              </Box>
            </Tooltip>
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        size="small"
        fullWidth
        sx={{ mt: 1.5 }}
        label={v.iconAddress}
        value={address ? value : ''}
        onChange={(e) => onChange(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 2048, spellCheck: false } }}
      />
    </Box>
  );
}
