// The list card types: one view, four definitions (spec 02 section 3 "List types").
import { DEFAULT_CARD_LOCALE, type CardTypeCode } from '@sentra/contracts';
import { lazyView, type CardViewName } from '../common/lazyView.js';
import { DATE_FORMAT, LOCALE, field, title, type ViewFieldSpec } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

const defaults = { locale: DEFAULT_CARD_LOCALE };
const fields = [title(), field('visTags', 'switch'), field('full_number', 'switch'), LOCALE, DATE_FORMAT];

const list = (type: CardTypeCode, label: string, view: CardViewName, extra: readonly ViewFieldSpec[] = []) =>
  defineCard(type, { label, defaults, fields: [...fields, ...extra], size: { w: 2, h: 4 }, view: lazyView(view) });

export const listCard = list('LIST_CARD', 'List (by all/tags)', 'AutoListView');
export const listCustomCard = list('LIST_CUSTOM_CARD', 'List (manual)', 'ManualListView', [
  field('devices', 'devices'),
]);
export const listTransactionCard = list('LIST_TRANSACTION_CARD', 'Transaction list', 'TransactionListView');
export const listPaymentCard = list('LIST_PAYMENT_CARD', 'Payment list', 'PaymentListView');
