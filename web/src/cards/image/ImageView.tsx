// SINGLE_IMAGE_CARD: the picture a device sent (an image value: address or data URI), else the card's own picture.
import { Box } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { CardMessage } from '../common/CardMessage.js';
import { isPictureAddress } from '../common/icons.js';
import { UpdatedAt } from '../common/UpdatedAt.js';

/** A picture source from a value: an address, a data URI, or bare base64 of a JPEG/PNG. */
export function pictureOf(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const s = v.trim();
  if (isPictureAddress(s)) return s;
  if (/^\/9j\//.test(s)) return `data:image/jpeg;base64,${s}`;
  if (/^iVBOR/.test(s)) return `data:image/png;base64,${s}`;
  return undefined;
}

export default function ImageView({ view, data }: CardViewProps<{ pict?: string; title?: string }>) {
  const src = pictureOf(data?.value) ?? pictureOf(view.pict);
  if (!src) {
    return <CardMessage>{T.cardViews.noImage}</CardMessage>;
  }
  return (
    <Box sx={{ height: '100%', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <Box
        component="img"
        data-testid="card-image"
        src={src}
        alt={view.title ?? ''}
        sx={{ flex: 1, minHeight: 0, width: '100%', objectFit: 'contain' }}
      />
      <UpdatedAt time={data?.time} />
    </Box>
  );
}
