// CRACK_CARD: crack openings with label, length (in its own unit) and colour per crack.
import { lazyView } from '../common/lazyView.js';
import { field, numberList, textList, title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

export const crackCard = defineCard('CRACK_CARD', {
  label: 'Crack',
  size: { w: 1, h: 4 },
  fields: [
    title(),
    field('unit', 'text'),
    textList('crack_labels'),
    numberList('crack_lengths'),
    field('crack_length_unit', 'text'),
    field('crack_colors', 'colors'),
  ],
  view: lazyView('CrackView'),
});
