// The sign-in carousel of product messages (spec 01 section 2): autoplays every 5000 ms.
import { useEffect, useState } from 'react';
import { Box, IconButton, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import { SentraLogo } from '../../ui/SentraLogo.js';

export const CAROUSEL_INTERVAL_MS = 5000;

export function SignInCarousel() {
  const slides = T.signInPage.carousel;
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setIndex((i) => (i + 1) % slides.length), CAROUSEL_INTERVAL_MS);
    return () => clearInterval(t);
  }, [slides.length, index]);
  return (
    <Box
      data-testid="signin-carousel"
      sx={{
        position: 'relative',
        height: '100%',
        color: '#fff',
        overflow: 'hidden',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        p: { sm: 5, lg: 8 },
        background: 'radial-gradient(circle at 20% 20%, #1e88e5 0%, #0d47a1 45%, #062a63 100%)',
      }}
    >
      <SentraLogo light />
      <Box sx={{ position: 'relative', minHeight: 180 }}>
        {slides.map((s, i) => (
          <Box
            key={s.title}
            aria-hidden={i !== index}
            sx={{
              position: 'absolute',
              inset: 0,
              opacity: i === index ? 1 : 0,
              transform: i === index ? 'none' : 'translateY(12px)',
              transition: 'opacity 600ms ease, transform 600ms ease',
            }}
          >
            <Typography variant="h3" component="h2" sx={{ fontWeight: 700, mb: 2, fontSize: { sm: 30, lg: 40 } }}>
              {s.title}
            </Typography>
            <Typography variant="h6" component="p" sx={{ fontWeight: 400, opacity: 0.9, maxWidth: 560 }}>
              {s.body}
            </Typography>
          </Box>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1 }}>
        {slides.map((s, i) => (
          <IconButton key={s.title} aria-label={s.title} onClick={() => setIndex(i)} sx={{ p: 0.5 }}>
            <Box
              sx={{
                width: i === index ? 28 : 10,
                height: 10,
                borderRadius: 5,
                bgcolor: i === index ? '#fff' : 'rgba(255,255,255,0.45)',
                transition: 'width 300ms',
              }}
            />
          </IconButton>
        ))}
      </Box>
    </Box>
  );
}
