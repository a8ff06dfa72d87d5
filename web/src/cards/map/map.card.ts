// MAP_CARD: devices of the card's tags on a Leaflet map (lazy chunk), or on a floor plan image.
import { lazy } from 'react';
import { defineCard } from '../common/definition.js';

export const mapCard = defineCard('MAP_CARD', {
  label: 'Map',
  size: { w: 2, h: 4 },
  view: lazy(() => import('./MapView.js')),
});
