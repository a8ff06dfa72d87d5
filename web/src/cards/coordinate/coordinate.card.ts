// COORDINATE_CARD: x (model.value) against y (model.output) over the card's window.
import { lazyView } from '../common/lazyView.js';
import { defineCard } from '../common/definition.js';

export const coordinateCard = defineCard('COORDINATE_CARD', {
  label: 'Coordinate',
  size: { w: 2, h: 4 },
  view: lazyView('CoordinateView'),
});
