// WEBSERVICE (read when shown) and WEBSERVICE_FETCH (re-read periodically): cards fed by an allow-listed HTTP endpoint
// through the gateway.
import { lazyView } from '../common/lazyView.js';
import { title } from '../common/viewFieldKit.js';
import { defineCard } from '../common/definition.js';

const view = lazyView('WebserviceView');
const fields = [title()];
export const webserviceCard = defineCard('WEBSERVICE', {
  label: 'Web service',
  size: { w: 2, h: 4 },
  live: false,
  fields,
  view,
});
export const webserviceFetchCard = defineCard('WEBSERVICE_FETCH', {
  label: 'Web service (periodic)',
  size: { w: 2, h: 4 },
  live: false,
  fields,
  view,
});
