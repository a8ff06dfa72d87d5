// THREE_PHASE_CARD: three readings (phases R, S, T) of one three-phase query.
import { lazyView } from '../common/lazyView.js';
import { VALUE, title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const threePhaseCard = defineCard('THREE_PHASE_CARD', {
  label: 'Three phase',
  size: { w: 1, h: 4 },
  fields: [title(), ...VALUE],
  view: lazyView('ThreePhaseView'),
});
