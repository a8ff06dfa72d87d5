// SINGLE_IMAGE_CARD: a picture from a device's image value or the card's own picture address.
import { lazyView } from '../common/lazyView.js';
import { field, title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const imageCard = defineCard('SINGLE_IMAGE_CARD', {
  label: 'Picture',
  size: { w: 2, h: 4 },
  fields: [title(), field('pict', 'text')],
  view: lazyView('ImageView'),
});
