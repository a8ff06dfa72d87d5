// MAP_CARD: devices of the card's tags on a Leaflet map (lazy chunk), or on a floor plan image.
import { lazy } from 'react';
import { field, title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const mapCard = defineCard('MAP_CARD', {
  label: 'Map',
  size: { w: 2, h: 4 },
  fields: [title(), field('color_dot', 'text'), field('visTags', 'switch')],
  view: lazy(() => import('./MapView.js')),
});
