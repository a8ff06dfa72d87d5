// A card's main value, as large as its cell allows without wrapping.
import { Typography, type SxProps } from '@mui/material';

export function fitFontSize(text: string, width: number, height: number, max = 56, min = 12): number {
  const byHeight = height * 0.5;
  const byWidth = width > 0 ? width / Math.max(1, text.length * 0.6) : max;
  return Math.round(Math.max(min, Math.min(max, byHeight, byWidth)));
}

export function ValueText({ text, width, height, color, testId = 'card-value', sx }: { text: string; width: number; height: number; color?: string; testId?: string; sx?: SxProps }) {
  return (
    <Typography
      data-testid={testId}
      component="div"
      noWrap
      title={text}
      sx={{ fontWeight: 700, lineHeight: 1.1, fontSize: fitFontSize(text, width, height), color, fontVariantNumeric: 'tabular-nums', ...sx }}
    >
      {text}
    </Typography>
  );
}
