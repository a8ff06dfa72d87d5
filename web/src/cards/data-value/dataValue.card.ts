// DATA_VALUE_CARD: three values (model.value_1..3) with one unit.
import { z } from 'zod';
import { lazyView } from '../common/lazyView.js';
import { field, title } from '../common/viewFieldKit.js';
import { defineCard, viewSchema } from '../common/definition.js';

export const dataValueCard = defineCard('DATA_VALUE_CARD', {
  label: 'Three values',
  config: viewSchema({ labels: z.array(z.string()).max(3).optional() }),
  size: { w: 1, h: 4 },
  fields: [title(), field('unit', 'text'), field('unit_front', 'switch'), field('full_number', 'switch')],
  view: lazyView('DataValueView'),
});
