// The avatar of the user forms: a local preview only (the spec shows no upload call), replace, and remove after the
// confirm dialog's image question.
import { useEffect, useRef, useState } from 'react';
import { Avatar, Box, Button, Stack, Typography } from '@mui/material';
import PersonIcon from '@mui/icons-material/Person';
import { T } from '@sentra/contracts';
import { useConfirm } from '../../ui/ConfirmDialog.js';

export function AvatarPicker({ initial, disabled }: { initial?: string; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const confirm = useConfirm();
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);

  const pick = (file: File | undefined) => {
    if (file?.type.startsWith('image/')) setPreview(URL.createObjectURL(file));
  };
  const remove = async () => {
    if (await confirm({ message: T.application.removeImage })) setPreview(null);
  };

  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
      <Typography variant="subtitle2">{T.users.avatar}</Typography>
      <Avatar src={preview ?? undefined} alt={T.users.avatar} data-testid="avatar-preview" sx={{ width: 128, height: 128, fontSize: 48, bgcolor: 'primary.light' }}>
        {initial ? initial.charAt(0).toUpperCase() : <PersonIcon sx={{ fontSize: 64 }} />}
      </Avatar>
      <input ref={input} type="file" accept="image/*" hidden data-testid="avatar-input" onChange={(e) => { pick(e.target.files?.[0]); e.target.value = ''; }} />
      <Stack direction="row" spacing={1}>
        <Button size="small" variant="outlined" disabled={disabled} onClick={() => input.current?.click()}>{preview ? T.users.avatarReplace : T.users.avatarUpload}</Button>
        {preview && <Button size="small" color="error" disabled={disabled} onClick={() => void remove()}>{T.users.avatarRemove}</Button>}
      </Stack>
      <Box component="span" sx={{ typography: 'caption', color: 'text.secondary', textAlign: 'center' }}>{T.users.avatarNote}</Box>
    </Stack>
  );
}
