// WEBSERVICE (read when shown) and WEBSERVICE_FETCH (re-read periodically): cards fed by an allow-listed HTTP endpoint
// through the gateway.
import type { CardTypeCode } from '@sentra/contracts';
import { lazyView } from '../common/lazyView.js';
import { title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

const webservice = (type: CardTypeCode, label: string) =>
  defineCard(type, { label, size: { w: 2, h: 4 }, live: false, fields: [title()], view: lazyView('WebserviceView') });

export const webserviceCard = webservice('WEBSERVICE', 'Web service');
export const webserviceFetchCard = webservice('WEBSERVICE_FETCH', 'Web service (periodic)');
