// GET /fetch/web/ws/{dashboardId}/{componentKey}: a web-service card's data, fetched by the gateway.
import { webserviceContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { DashboardViews } from '../dashboards/views.js';
import { createWebservice, type WebserviceOptions } from './webservice.service.js';

/** The routes; `allow` is the configuration's WEBSERVICE_ALLOW (empty refuses every address). */
export function webserviceRoutes(deps: WebserviceOptions) {
  const service = createWebservice(deps);
  return implement(webserviceContract, {
    fetch: ({ input, caller }) => service.fetchCard(caller, input.dashboardId, input.componentKey),
  });
}
