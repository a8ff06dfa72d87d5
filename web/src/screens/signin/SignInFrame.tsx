// The frame of the sign-in and registration pages: the product carousel beside a form panel whose width follows the
// spec (80% under 576 px, 64% up to 768, 52% up to 1200, 36% above).
import type { ReactNode } from 'react';
import { Box, Paper } from '@mui/material';
import { SignInCarousel } from './SignInCarousel.js';

export const formWidth = {
  width: '80%',
  '@media (min-width: 576px)': { width: '64%' },
  '@media (min-width: 768px)': { width: '52%' },
  '@media (min-width: 1200px)': { width: '36%' },
} as const;

export function SignInFrame({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', background: 'linear-gradient(135deg, #0d47a1 0%, #062a63 100%)' }}>
      <Box sx={{ flex: 1, display: 'none', '@media (min-width: 768px)': { display: 'block' } }}>
        <SignInCarousel />
      </Box>
      <Paper
        square
        elevation={0}
        data-testid="signin-form-panel"
        sx={{
          ...formWidth,
          position: 'relative',
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'center',
          px: { xs: 3, sm: 5 },
          py: 5,
          mx: 'auto',
          my: 4,
          borderRadius: 2,
          '@media (min-width: 768px)': {
            ...formWidth['@media (min-width: 768px)'],
            mx: 0,
            my: 0,
            borderRadius: 0,
            minHeight: '100vh',
          },
        }}
      >
        {children}
      </Paper>
    </Box>
  );
}
