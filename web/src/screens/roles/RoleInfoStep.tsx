// The wizard's info step: name, description, permissions (JSON text) and the system navigation multi-select.
import {
  Box,
  Checkbox,
  Chip,
  FormControl,
  FormHelperText,
  InputLabel,
  ListItemText,
  MenuItem,
  OutlinedInput,
  Select,
  Stack,
  TextField,
} from '@mui/material';
import { SYS_NAVS, T, type SysNav } from '@sentra/contracts';
import type { FieldErrors } from '../../ui/forms.js';
import type { RoleInfoForm, RoleWizardEvent } from './roleWizard.machine.js';

const sysNavLabel = (k: SysNav) => T.roles.sysNavLabels[k];

export function RoleInfoStep({
  info,
  errors,
  disabled,
  send,
}: {
  info: RoleInfoForm;
  errors: FieldErrors;
  disabled: boolean;
  send(e: RoleWizardEvent): void;
}) {
  const text = (field: 'name' | 'description' | 'permissions') => ({
    name: field,
    value: info[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => send({ type: 'EDIT_INFO', field, value: e.target.value }),
    error: !!errors[field],
    disabled,
    fullWidth: true,
  });
  return (
    <Stack spacing={1}>
      <TextField
        {...text('name')}
        label={T.roles.name}
        required
        autoFocus
        helperText={errors.name ?? ' '}
        slotProps={{ htmlInput: { maxLength: 30 } }}
      />
      <TextField
        {...text('description')}
        label={T.roles.description}
        multiline
        minRows={2}
        helperText={errors.description ?? ' '}
      />
      <FormControl fullWidth error={!!errors.sys_navs} disabled={disabled}>
        <InputLabel id="role-sys-navs-label">{T.roles.sysNavs}</InputLabel>
        <Select
          labelId="role-sys-navs-label"
          id="role-sys-navs"
          multiple
          value={info.sys_navs}
          onChange={(e) =>
            send({
              type: 'SET_SYS_NAVS',
              value: (typeof e.target.value === 'string' ? e.target.value.split(',') : e.target.value) as SysNav[],
            })
          }
          input={<OutlinedInput label={T.roles.sysNavs} />}
          renderValue={(keys) => (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {keys.map((k) => (
                <Chip key={k} size="small" label={sysNavLabel(k)} />
              ))}
            </Box>
          )}
        >
          {SYS_NAVS.map((k) => (
            <MenuItem key={k} value={k}>
              <Checkbox checked={info.sys_navs.includes(k)} size="small" />
              <ListItemText primary={sysNavLabel(k)} />
            </MenuItem>
          ))}
        </Select>
        <FormHelperText>{errors.sys_navs ?? ' '}</FormHelperText>
      </FormControl>
      <TextField
        {...text('permissions')}
        label={T.roles.permissions}
        required
        multiline
        minRows={3}
        helperText={errors.permissions ?? ' '}
        slotProps={{ input: { sx: { fontFamily: 'monospace' } } }}
      />
    </Stack>
  );
}
