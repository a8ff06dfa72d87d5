// The application image of the add screen: a local preview only (no upload call), replace, and remove after the
// spec's confirmation 'Apakah anda yakin ingin menghapus gambar ini?'.
import { useEffect, useRef, useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import ImageIcon from '@mui/icons-material/Image';
import { T } from '@sentra/contracts';
import { useConfirm } from '../../ui/ConfirmDialog.js';

export function AppImagePicker() {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const confirm = useConfirm();
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);

  const pick = (file: File | undefined) => {
    if (!file || !file.type.startsWith('image/')) return;
    setPreview(URL.createObjectURL(file));
  };
  const remove = async () => {
    if (await confirm({ message: T.application.removeImage })) setPreview(null);
  };

  return (
    <Box>
      <Typography variant="subtitle2" gutterBottom>{T.appForm.image}</Typography>
      <Box
        sx={{ aspectRatio: '4 / 3', borderRadius: 2, border: '2px dashed', borderColor: 'divider', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden', bgcolor: 'action.hover', cursor: preview ? 'default' : 'pointer' }}
        onClick={() => !preview && input.current?.click()}
      >
        {preview ? <Box component="img" src={preview} alt={T.appForm.image} data-testid="app-image-preview" sx={{ width: '100%', height: '100%', objectFit: 'cover' }} /> : <ImageIcon sx={{ fontSize: 64, color: 'text.disabled' }} />}
      </Box>
      <input ref={input} type="file" accept="image/*" hidden data-testid="app-image-input" onChange={(e) => { pick(e.target.files?.[0]); e.target.value = ''; }} />
      <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
        {preview ? (
          <>
            <Button size="small" variant="outlined" onClick={() => input.current?.click()}>{T.appForm.replace}</Button>
            <Button size="small" color="error" onClick={() => void remove()}>{T.appForm.remove}</Button>
          </>
        ) : (
          <Button size="small" variant="outlined" onClick={() => input.current?.click()}>{T.appForm.upload}</Button>
        )}
      </Stack>
    </Box>
  );
}
