// CRACK_CARD: crack openings with label, length and colour per crack.
import { lazyView } from '../common/lazyView.js';
import { defineCard } from '../common/definition.js';

export const crackCard = defineCard('CRACK_CARD', {
  label: 'Crack',
  size: { w: 1, h: 4 },
  view: lazyView('CrackView'),
});
