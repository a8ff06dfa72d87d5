// WEBSERVICE (read when shown) and WEBSERVICE_FETCH (re-read periodically): cards fed by an allow-listed HTTP endpoint
// through the gateway.
import { lazy } from 'react';
import { defineCard } from '../common/definition.js';

const view = lazy(() => import('./WebserviceView.js'));
export const webserviceCard = defineCard('WEBSERVICE', { label: 'Web service', size: { w: 2, h: 4 }, live: false, view });
export const webserviceFetchCard = defineCard('WEBSERVICE_FETCH', { label: 'Web service (periodic)', size: { w: 2, h: 4 }, live: false, view });
