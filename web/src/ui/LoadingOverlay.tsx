// The loading overlay forms show while a request runs (spec 01 section 4); covers its positioned parent only.
import { Backdrop, CircularProgress } from '@mui/material';

export function LoadingOverlay({ open }: { open: boolean }) {
  return (
    <Backdrop
      open={open}
      data-testid="loading-overlay"
      sx={{ position: 'absolute', inset: 0, zIndex: 2, bgcolor: 'rgba(255,255,255,0.6)', borderRadius: 'inherit' }}
    >
      <CircularProgress />
    </Backdrop>
  );
}
