// COORDINATE_CARD: x (model.value) against y (model.output) over the card's window.
import { lazyView } from '../common/lazyView.js';
import { field, title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const coordinateCard = defineCard('COORDINATE_CARD', {
  label: 'Coordinate',
  size: { w: 2, h: 4 },
  fields: [
    title(),
    field('axis_x', 'text'),
    field('axis_y', 'text'),
    field('unit_x', 'text'),
    field('unit_y', 'text'),
    field('color_dot', 'text'),
  ],
  view: lazyView('CoordinateView'),
});
