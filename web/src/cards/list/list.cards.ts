// The list card types: one view, four definitions (spec 02 section 3 "List types").
import { DEFAULT_CARD_LOCALE } from '@sentra/contracts';
import { lazyView } from '../common/lazyView.js';
import { defineCard } from '../common/definition.js';

const defaults = { locale: DEFAULT_CARD_LOCALE };
export const listCard = defineCard('LIST_CARD', { label: 'List (by all/tags)', defaults, size: { w: 2, h: 4 }, view: lazyView('AutoListView') });
export const listCustomCard = defineCard('LIST_CUSTOM_CARD', { label: 'List (manual)', defaults, size: { w: 2, h: 4 }, view: lazyView('ManualListView') });
export const listTransactionCard = defineCard('LIST_TRANSACTION_CARD', { label: 'Transaction list', defaults, size: { w: 2, h: 4 }, view: lazyView('TransactionListView') });
export const listPaymentCard = defineCard('LIST_PAYMENT_CARD', { label: 'Payment list', defaults, size: { w: 2, h: 4 }, view: lazyView('PaymentListView') });
