// STRAIN_CARD: strain gauges with label, curve and colour per gauge.
import { field, textList } from '../common/viewFieldKit.js';
import { titledCard } from '../common/titledCard.js';

export const strainCard = titledCard('STRAIN_CARD', 'Strain', { w: 1, h: 4 }, 'StrainView', [
  field('unit', 'text'),
  textList('strain_labels'),
  textList('strain_curves'),
  field('strain_colors', 'colors'),
]);
