// A card's one line of explanation in place of its content ('Gambar belum diatur', no embedded address), centred.
import { Box, Typography } from '@mui/material';

export function CardMessage({ children }: { children: string }) {
  return (
    <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Typography variant="body2" color="text.secondary">
        {children}
      </Typography>
    </Box>
  );
}
