// CRACK_CARD: crack openings with label, length (in its own unit) and colour per crack.
import { field, numberList, textList } from '../common/viewFieldKit.js';
import { titledCard } from '../common/titledCard.js';

export const crackCard = titledCard('CRACK_CARD', 'Crack', { w: 1, h: 4 }, 'CrackView', [
  field('unit', 'text'),
  textList('crack_labels'),
  numberList('crack_lengths'),
  field('crack_length_unit', 'text'),
  field('crack_colors', 'colors'),
]);
