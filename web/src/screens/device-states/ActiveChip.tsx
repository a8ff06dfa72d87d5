// Active / Inactive of a state (spec 03 section 4: Inactive when the value is null).
import { Chip } from '@mui/material';
import { T } from '@sentra/contracts';

export const ActiveChip = ({ isNull }: { isNull: boolean }) => (
  <Chip
    size="small"
    color={isNull ? 'default' : 'success'}
    variant={isNull ? 'outlined' : 'filled'}
    label={isNull ? T.deviceStates.inactive : T.deviceStates.active}
  />
);
