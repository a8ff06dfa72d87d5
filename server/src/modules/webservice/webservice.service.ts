// Fetches a web-service card's configured address for its viewers: only http(s) hosts on the operator's allow-list
// (WEBSERVICE_ALLOW: comma-separated `host`, `host:port` or `*.domain`; empty refuses every address), no redirects,
// at most WEBSERVICE_LIMITS.timeoutMs and .maxBytes. The address comes from the stored card, never from the request,
// so a viewer cannot point the gateway anywhere; a manager can point it only at allowed hosts.
import { CARD_TYPES, T, WEBSERVICE_LIMITS, WebserviceCode, type WebserviceAnswer } from '@sentra/contracts';
import type { Caller } from '../../platform/http/mount.js';
import { isAllowed, type AllowEntry } from '../../platform/http/host-allow-list.js';
import { fail, invalid } from '../../platform/http/errors.js';
import type { DashboardViews } from '../dashboards/views.js';
import { componentForCall } from '../cards/cardData.js';

export const WEBSERVICE_CARDS = new Set(['WEBSERVICE', 'WEBSERVICE_FETCH']);

/** The value at a dot path (`data.items.0.value`) of a JSON answer. */
export function atPath(data: unknown, path: string | undefined): unknown {
  if (!path) return data;
  let cur: unknown = data;
  for (const part of path.split('.').filter(Boolean)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export interface WebserviceOptions {
  source: DashboardViews;
  allow: readonly AllowEntry[];
  timeoutMs?: number;
  maxBytes?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

export function createWebservice(opts: WebserviceOptions) {
  const timeoutMs = opts.timeoutMs ?? WEBSERVICE_LIMITS.timeoutMs;
  const maxBytes = opts.maxBytes ?? WEBSERVICE_LIMITS.maxBytes;
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? Date.now;

  async function read(res: Response): Promise<string> {
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes)
      throw fail(WebserviceCode.TOO_LARGE, T.cardViews.webserviceTooLarge);
    if (!res.body) return '';
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw fail(WebserviceCode.TOO_LARGE, T.cardViews.webserviceTooLarge);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  return {
    async fetchCard(caller: Caller, dashboardId: number, key: string): Promise<WebserviceAnswer> {
      const view = await opts.source.dashboard(caller, dashboardId);
      const component = componentForCall(view, key);
      if (!WEBSERVICE_CARDS.has(component.cat) || !CARD_TYPES[component.cat])
        throw invalid(T.cardViews.webserviceNotCard);
      const cfg = (component.model?.config ?? {}) as { url?: unknown; path?: unknown };
      const url = typeof cfg.url === 'string' ? cfg.url.trim() : '';
      if (!url) throw invalid(T.cardViews.webserviceNoSource);
      if (!isAllowed(url, opts.allow)) throw fail(WebserviceCode.NOT_ALLOWED, T.cardViews.webserviceNotAllowed);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      try {
        let res: Response;
        try {
          res = await doFetch(url, {
            method: 'GET',
            redirect: 'manual',
            signal: controller.signal,
            headers: { accept: 'application/json, text/plain;q=0.9, */*;q=0.1', 'user-agent': 'Sentra-Webservice/1' },
          });
        } catch {
          throw controller.signal.aborted
            ? fail(WebserviceCode.UPSTREAM_TIMEOUT, T.cardViews.webserviceTimeout)
            : fail(WebserviceCode.UPSTREAM_FAILED, T.cardViews.webserviceFailed);
        }
        if (res.status >= 300) {
          await res.body?.cancel().catch(() => undefined);
          throw fail(WebserviceCode.UPSTREAM_FAILED, T.cardViews.webserviceFailed);
        }
        let text: string;
        try {
          text = await read(res);
        } catch (err) {
          if (controller.signal.aborted) throw fail(WebserviceCode.UPSTREAM_TIMEOUT, T.cardViews.webserviceTimeout);
          throw err;
        }
        const type = res.headers.get('content-type') ?? '';
        let data: unknown = text;
        if (/json/i.test(type) || /^\s*[[{]/.test(text)) {
          try {
            data = atPath(JSON.parse(text), typeof cfg.path === 'string' ? cfg.path : undefined);
          } catch {
            data = text;
          }
        }
        return { status: res.status, content_type: type, data: data ?? null, fetched_at: now() };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type Webservice = ReturnType<typeof createWebservice>;
