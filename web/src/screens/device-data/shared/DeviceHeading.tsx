// The heading of a device's data screens: the screen's title, then the device's label, serial number and On/Off chip.
import { Box, Chip, Typography } from '@mui/material';
import { T, type DataDevice } from '@sentra/contracts';

export function DeviceHeading({ title, device }: { title: string; device: DataDevice | null }) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>
        {title}
      </Typography>
      {device && (
        <Typography color="text.secondary">
          {device.label} · {device.serial_number}{' '}
          <Chip
            size="small"
            sx={{ ml: 1 }}
            color={device.online ? 'success' : 'default'}
            label={device.online ? T.deviceData.on : T.deviceData.off}
          />
        </Typography>
      )}
    </Box>
  );
}
