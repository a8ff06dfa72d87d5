// STRAIN_CARD: strain gauges with label, curve and colour per gauge.
import { lazyView } from '../common/lazyView.js';
import { defineCard } from '../common/definition.js';

export const strainCard = defineCard('STRAIN_CARD', {
  label: 'Strain',
  size: { w: 1, h: 4 },
  view: lazyView('StrainView'),
});
