// The list card types: one view, four definitions (spec 02 section 3 "List types").
import { DEFAULT_CARD_LOCALE } from '@sentra/contracts';
import { lazyView } from '../common/lazyView.js';
import { DATE_FORMAT, LOCALE, field, title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

const defaults = { locale: DEFAULT_CARD_LOCALE };
const fields = [title(), field('visTags', 'switch'), field('full_number', 'switch'), LOCALE, DATE_FORMAT];
export const listCard = defineCard('LIST_CARD', {
  label: 'List (by all/tags)',
  defaults,
  fields,
  size: { w: 2, h: 4 },
  view: lazyView('AutoListView'),
});
export const listCustomCard = defineCard('LIST_CUSTOM_CARD', {
  label: 'List (manual)',
  defaults,
  fields: [...fields, field('devices', 'devices')],
  size: { w: 2, h: 4 },
  view: lazyView('ManualListView'),
});
export const listTransactionCard = defineCard('LIST_TRANSACTION_CARD', {
  label: 'Transaction list',
  defaults,
  fields,
  size: { w: 2, h: 4 },
  view: lazyView('TransactionListView'),
});
export const listPaymentCard = defineCard('LIST_PAYMENT_CARD', {
  label: 'Payment list',
  defaults,
  fields,
  size: { w: 2, h: 4 },
  view: lazyView('PaymentListView'),
});
