// The list card types: one view, four definitions (spec 02 section 3 "List types").
import { lazy } from 'react';
import { defineCard } from '../common/definition.js';

const view = (name: 'AutoListView' | 'ManualListView' | 'TransactionListView' | 'PaymentListView') => lazy(() => import('./ListView.js').then((m) => ({ default: m[name] })));

export const listCard = defineCard('LIST_CARD', { label: 'List (by all/tags)', size: { w: 2, h: 4 }, view: view('AutoListView') });
export const listCustomCard = defineCard('LIST_CUSTOM_CARD', { label: 'List (manual)', size: { w: 2, h: 4 }, view: view('ManualListView') });
export const listTransactionCard = defineCard('LIST_TRANSACTION_CARD', { label: 'Transaction list', size: { w: 2, h: 4 }, view: view('TransactionListView') });
export const listPaymentCard = defineCard('LIST_PAYMENT_CARD', { label: 'Payment list', size: { w: 2, h: 4 }, view: view('PaymentListView') });
