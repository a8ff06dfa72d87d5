// The application image of the add screen: a local preview only (no upload call), replace, and remove after the
// spec's confirmation 'Apakah anda yakin ingin menghapus gambar ini?'.
import { Box, Button, Stack, Typography } from '@mui/material';
import ImageIcon from '@mui/icons-material/Image';
import { T } from '@sentra/contracts';
import { useImagePreview } from '../../ui/useImagePreview.js';

export function AppImagePicker() {
  const { preview, choose, remove, inputProps } = useImagePreview();

  return (
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        {T.appForm.image}
      </Typography>
      <Box
        sx={{
          aspectRatio: '4 / 3',
          borderRadius: 2,
          border: '2px dashed',
          borderColor: 'divider',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
          bgcolor: 'action.hover',
          cursor: preview ? 'default' : 'pointer',
        }}
        onClick={() => !preview && choose()}
      >
        {preview ? (
          <Box
            component="img"
            src={preview}
            alt={T.appForm.image}
            data-testid="app-image-preview"
            sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
          />
        ) : (
          <ImageIcon sx={{ fontSize: 64, color: 'text.disabled' }} />
        )}
      </Box>
      <input {...inputProps} data-testid="app-image-input" />
      <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
        {preview ? (
          <>
            <Button size="small" variant="outlined" onClick={choose}>
              {T.appForm.replace}
            </Button>
            <Button size="small" color="error" onClick={remove}>
              {T.appForm.remove}
            </Button>
          </>
        ) : (
          <Button size="small" variant="outlined" onClick={choose}>
            {T.appForm.upload}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
