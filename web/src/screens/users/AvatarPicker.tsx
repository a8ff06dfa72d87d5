// The avatar of the user forms: a local preview only (the spec shows no upload call), replace, and remove after the
// confirm dialog's image question.
import { Avatar, Box, Button, Stack, Typography } from '@mui/material';
import PersonIcon from '@mui/icons-material/Person';
import { T } from '@sentra/contracts';
import { useImagePreview } from '../../ui/useImagePreview.js';

export function AvatarPicker({ initial, disabled }: { initial?: string; disabled?: boolean }) {
  const { preview, choose, remove, inputProps } = useImagePreview();

  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
      <Typography variant="subtitle2">{T.users.avatar}</Typography>
      <Avatar
        src={preview ?? undefined}
        alt={T.users.avatar}
        data-testid="avatar-preview"
        sx={{ width: 128, height: 128, fontSize: 48, bgcolor: 'primary.light' }}
      >
        {initial ? initial.charAt(0).toUpperCase() : <PersonIcon sx={{ fontSize: 64 }} />}
      </Avatar>
      <input {...inputProps} data-testid="avatar-input" />
      <Stack direction="row" spacing={1}>
        <Button size="small" variant="outlined" disabled={disabled} onClick={choose}>
          {preview ? T.users.avatarReplace : T.users.avatarUpload}
        </Button>
        {preview && (
          <Button size="small" color="error" disabled={disabled} onClick={remove}>
            {T.users.avatarRemove}
          </Button>
        )}
      </Stack>
      <Box component="span" sx={{ typography: 'caption', color: 'text.secondary', textAlign: 'center' }}>
        {T.users.avatarNote}
      </Box>
    </Stack>
  );
}
