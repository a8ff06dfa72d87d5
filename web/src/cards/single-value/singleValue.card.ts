// SINGLE_VALUE_CARD: one value with a unit subtype (Custom Unit default; Sales stores RUPIAH).
import { z } from 'zod';
import { DEFAULT_CARD_LOCALE, DEFAULT_UNIT, UNIT_CODES } from '@sentra/contracts';
import { lazyView } from '../common/lazyView.js';
import { LOCALE, VALUE, title } from '../common/viewFieldKit.js';
import { defineCard, viewSchema } from '../common/definition.js';

export const singleValueCard = defineCard('SINGLE_VALUE_CARD', {
  label: 'Single value',
  config: viewSchema({
    type: z.enum(UNIT_CODES).default(DEFAULT_UNIT),
    locale: z.string().default(DEFAULT_CARD_LOCALE),
  }),
  defaults: { type: DEFAULT_UNIT, locale: DEFAULT_CARD_LOCALE },
  size: { w: 1, h: 2 },
  fields: [title(), ...VALUE, LOCALE],
  view: lazyView('SingleValueView'),
});
