// The product mark: the S badge and the SENTRA word.
import { Box, Typography } from '@mui/material';

export function SentraLogo({ light = false }: { light?: boolean }) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box component="img" src="/favicon.svg" alt="" sx={{ width: 32, height: 32 }} />
      <Typography
        component="span"
        sx={{ fontWeight: 800, letterSpacing: 3, fontSize: 20, color: light ? '#fff' : 'primary.main' }}
      >
        SENTRA
      </Typography>
    </Box>
  );
}
