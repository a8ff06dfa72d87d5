// STRAIN_CARD: strain gauges with label, curve and colour per gauge.
import { lazyView } from '../common/lazyView.js';
import { field, textList, title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const strainCard = defineCard('STRAIN_CARD', {
  label: 'Strain',
  size: { w: 1, h: 4 },
  fields: [
    title(),
    field('unit', 'text'),
    textList('strain_labels'),
    textList('strain_curves'),
    field('strain_colors', 'colors'),
  ],
  view: lazyView('StrainView'),
});
