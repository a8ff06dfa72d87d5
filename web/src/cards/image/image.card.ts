// SINGLE_IMAGE_CARD: a picture from a device's image value or the card's own picture address.
import { field } from '../common/viewFieldKit.js';
import { titledCard } from '../common/titledCard.js';

export const imageCard = titledCard('SINGLE_IMAGE_CARD', 'Picture', { w: 2, h: 4 }, 'ImageView', [
  field('pict', 'text'),
]);
