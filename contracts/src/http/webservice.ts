// Web-service cards (WEBSERVICE, WEBSERVICE_FETCH): a card fed by an HTTP endpoint the dashboard's manager stored in
// the card (`model.config.url`, optional `model.config.path` into the JSON answer). The gateway fetches it — never the
// browser (no CORS, no mixed content, the tenant's viewers never learn more than the card shows) — and only hosts on
// the operator's allow-list (env WEBSERVICE_ALLOW; empty refuses all), within a time-out and a size limit.
import { z } from 'zod';
import { T } from '../text/id.js';
import { defineCall, type Access } from './define.js';

export const WEBSERVICE_LIMITS = {
  /** the endpoint must answer within this */
  timeoutMs: 5_000,
  /** bytes of the answer read at most */
  maxBytes: 256 * 1024,
  /** WEBSERVICE_FETCH re-fetches at this interval unless the card says otherwise (config.refresh, at least minRefreshMs) */
  defaultRefreshMs: 60_000,
  minRefreshMs: 5_000,
} as const;

export const WebserviceCode = {
  /** the host is not on the allow-list, or the address is not http(s) */
  NOT_ALLOWED: -50,
  /** the endpoint did not answer within the time-out */
  UPSTREAM_TIMEOUT: -51,
  /** the answer exceeded the size limit */
  TOO_LARGE: -52,
  /** the endpoint failed (connection refused, HTTP error status, redirect) */
  UPSTREAM_FAILED: -53,
} as const;

const VIEW: Access = { navs: [] };

export const WebserviceAnswer = z.object({
  /** the endpoint's HTTP status */
  status: z.number().int(),
  content_type: z.string(),
  /** the JSON answer (at `path` when the card sets one), else the text */
  data: z.unknown(),
  fetched_at: z.number().int(),
});
export type WebserviceAnswer = z.output<typeof WebserviceAnswer>;

export const webserviceContract = {
  fetch: defineCall({
    method: 'GET',
    path: '/fetch/web/ws/{dashboardId}/{componentKey}',
    summary: "A web-service card's data: the gateway fetches the card's configured address (allow-listed hosts only)",
    audience: 'member',
    access: VIEW,
    input: z.object({ dashboardId: z.coerce.number().int().positive(), componentKey: z.string().min(1).max(30) }),
    output: WebserviceAnswer,
    timeoutMs: 15_000,
    errors: {
      [WebserviceCode.NOT_ALLOWED]: T.cardViews.webserviceNotAllowed,
      [WebserviceCode.UPSTREAM_TIMEOUT]: T.cardViews.webserviceTimeout,
      [WebserviceCode.TOO_LARGE]: T.cardViews.webserviceTooLarge,
      [WebserviceCode.UPSTREAM_FAILED]: T.cardViews.webserviceFailed,
    },
  }),
} as const;
