// GET /fetch/web/ws/{dashboardId}/{componentKey}: a web-service card's data, fetched by the gateway.
import { webserviceContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { DashboardViews } from '../dashboards/views.js';
import { createWebservice, parseAllowList, type WebserviceOptions } from './webservice.service.js';

/** The routes with the allow-list from the environment (WEBSERVICE_ALLOW; unset or empty refuses every address). */
export function webserviceRoutes(
  deps: { source: DashboardViews; env?: Record<string, string | undefined> } & Partial<
    Omit<WebserviceOptions, 'source'>
  >,
) {
  const env = deps.env ?? process.env;
  const service = createWebservice({ ...deps, allow: deps.allow ?? parseAllowList(env.WEBSERVICE_ALLOW) });
  return implement(webserviceContract, {
    fetch: ({ input, caller }) => service.fetchCard(caller, input.dashboardId, input.componentKey),
  });
}
