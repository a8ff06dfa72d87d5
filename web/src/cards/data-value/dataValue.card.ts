// DATA_VALUE_CARD: three values (model.value_1..3) with one unit.
import { lazy } from 'react';
import { z } from 'zod';
import { defineCard, viewSchema } from '../common/definition.js';

export const dataValueCard = defineCard('DATA_VALUE_CARD', {
  label: 'Three values',
  config: viewSchema({ labels: z.array(z.string()).max(3).optional() }),
  size: { w: 1, h: 4 },
  view: lazy(() => import('./DataValueView.js')),
});
