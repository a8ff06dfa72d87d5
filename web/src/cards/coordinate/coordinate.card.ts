// COORDINATE_CARD: x (model.value) against y (model.output) over the card's window.
import { field } from '../common/viewFieldKit.js';
import { titledCard } from '../common/titledCard.js';

export const coordinateCard = titledCard('COORDINATE_CARD', 'Coordinate', { w: 2, h: 4 }, 'CoordinateView', [
  field('axis_x', 'text'),
  field('axis_y', 'text'),
  field('unit_x', 'text'),
  field('unit_y', 'text'),
  field('color_dot', 'text'),
]);
