// The shared request rules of spec 01 section 7, in one place: base addresses, principal headers, usingAuth,
// time-outs, the { code, text, headers, body } result, the fixed periods, and the global 401 / 402 reactions.
import { Header, Result, baseOf, fillPath, type CallDef, type InputOf, type OutputOf } from '@sentra/contracts';
import { areaOf, type Area } from './area.js';
import { convertPeriod } from './period.js';

export type Method = 'GET' | 'POST';
export type BaseKind = 'service' | 'fetch';

export interface Credentials {
  id: number | string;
  token: string;
}

/** One call as the spec describes it. */
export interface RequestSpec {
  method?: Method;
  /** a full address; wins over `path` */
  url?: string;
  /** joined to the service or fetch base address */
  path?: string;
  params?: Record<string, unknown>;
  body?: unknown;
  timeoutMs?: number;
  /** the application domain (x-app-domain) */
  domain?: string;
  /** default true: send the principal's credentials; without them no request is sent */
  usingAuth?: boolean;
  /** which principal's credentials: the tenant's or the application user's of `domain` */
  isTenant?: boolean;
  base?: BaseKind;
  responseType?: 'json' | 'text';
  /** explicit credentials instead of the stored session (logout of a session being cleared) */
  credentials?: Credentials;
  /** skip the global 401/402 reactions (sign-in screens handle their own answers) */
  silent?: boolean;
}

/** Why no HTTP answer exists (code 0) or why none was requested. */
export type Failure = 'input' | 'unauthorized' | 'network' | 'timeout';

export interface ApiResult<B = unknown> {
  /** HTTP status; 0 when no answer arrived (input, network, timeout) */
  code: number;
  /** HTTP status text, or the failure reason */
  text: string;
  headers: Record<string, string>;
  body: B;
  failure?: Failure;
}

/** The envelope of a JSON answer: `response_result` 0 beside the call's output, or a failure with its message. */
export type Envelope<O> =
  | (O & { response_result: 0 })
  | { response_result: number; message?: string; errors?: { path: string; message: string }[]; isTenant?: boolean };

export interface RequestEnv {
  /** base address of /service calls ('' = same origin) */
  serviceBase: string;
  /** base address of /fetch calls ('' = same origin) */
  fetchBase: string;
  /** default time-out in ms */
  timeoutMs: number;
  fetch: typeof fetch;
  tenant(): Credentials | null;
  account(domain: string): Credentials | null;
  /** the area of the current page: default principal and domain of a call */
  area(): Area;
  /** global 401: clear the session, go to the sign-in with redirectURL */
  onUnauthorized?(area: Area): void;
  /** global 402: go to the payment route carrying isTenant */
  onPaymentRequired?(info: { isTenant: boolean }): void;
}

export interface CallOptions {
  domain?: string;
  isTenant?: boolean;
  usingAuth?: boolean;
  timeoutMs?: number;
  credentials?: Credentials;
  silent?: boolean;
  responseType?: 'json' | 'text';
}

export interface Requester {
  request<B = unknown>(spec: RequestSpec): Promise<ApiResult<B>>;
  /** a contract entry: method, path, time-out and audience come from the contract */
  call<C extends CallDef>(def: C, input?: InputOf<C>, opts?: CallOptions): Promise<ApiResult<Envelope<OutputOf<C>>>>;
}

const joinBase = (base: string, path: string) => base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);

function queryString(params: Record<string, unknown>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    qs.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : '';
}

function headersObject(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

const noAnswer = <B>(failure: Failure, code: number, text: string): ApiResult<B> => ({
  code,
  text,
  headers: {},
  body: null as B,
  failure,
});

export function createRequester(env: RequestEnv): Requester {
  async function request<B = unknown>(spec: RequestSpec): Promise<ApiResult<B>> {
    const method = spec.method ?? 'GET';
    if (!spec.url && !spec.path) return noAnswer('input', 0, 'neither url nor path');

    const usingAuth = spec.usingAuth ?? true;
    const here = env.area();
    const isTenant = spec.isTenant ?? here.isTenant;
    const domain = spec.domain;
    const area: Area = { isTenant, domain };

    const headers: Record<string, string> = {};
    if (usingAuth) {
      const creds = spec.credentials ?? (isTenant ? env.tenant() : domain ? env.account(domain) : null);
      if (!creds) {
        if (!spec.silent) env.onUnauthorized?.(area);
        return noAnswer('unauthorized', 401, 'Unauthorized');
      }
      headers[isTenant ? Header.tenantId : Header.accountId] = String(creds.id);
      headers[isTenant ? Header.tenantToken : Header.accountToken] = creds.token;
    }
    if (domain) headers[Header.appDomain] = domain;

    const base = spec.base ?? (spec.path ? baseOf(spec.path) : 'service');
    let url = spec.url ?? joinBase(base === 'fetch' ? env.fetchBase : env.serviceBase, spec.path!);
    let body: string | undefined;
    if (method === 'GET') {
      url += queryString(convertPeriod(spec.params ?? {}));
    } else {
      headers['content-type'] = 'application/json';
      const payload = spec.body ?? spec.params ?? {};
      body = JSON.stringify(
        payload && typeof payload === 'object' && !Array.isArray(payload)
          ? convertPeriod(payload as Record<string, unknown>)
          : payload,
      );
    }

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, spec.timeoutMs ?? env.timeoutMs);
    let res: Response;
    let raw: string;
    try {
      res = await env.fetch(url, { method, headers, body, signal: controller.signal });
      raw = await res.text();
    } catch {
      return timedOut ? noAnswer('timeout', 0, 'timeout') : noAnswer('network', 0, 'network failure');
    } finally {
      clearTimeout(timer);
    }

    let parsed: unknown = raw;
    if ((spec.responseType ?? 'json') === 'json') {
      try {
        parsed = raw ? JSON.parse(raw) : null;
      } catch {
        parsed = null;
      }
    }
    const result: ApiResult<B> = {
      code: res.status,
      text: res.statusText,
      headers: headersObject(res.headers),
      body: parsed as B,
    };

    if (usingAuth && !spec.silent) {
      if (res.status === 401) env.onUnauthorized?.(area);
      if (res.status === 402) {
        const flag = (parsed as { isTenant?: unknown } | null)?.isTenant;
        env.onPaymentRequired?.({ isTenant: typeof flag === 'boolean' ? flag : isTenant });
      }
    }
    return result;
  }

  function call<C extends CallDef>(def: C, input?: InputOf<C>, opts: CallOptions = {}) {
    const values = (input ?? {}) as Record<string, unknown>;
    let filled: { path: string; rest: Record<string, unknown> };
    try {
      filled = fillPath(def.path, values);
    } catch {
      return Promise.resolve(noAnswer<Envelope<OutputOf<C>>>('input', 0, 'missing path parameter'));
    }
    const here = env.area();
    // tenant-level calls carry no application; member/session calls default to the application of the page
    const tenantLevel = def.audience === 'tenant';
    return request<Envelope<OutputOf<C>>>({
      method: def.method,
      path: filled.path,
      params: def.method === 'GET' ? filled.rest : undefined,
      body: def.method === 'POST' ? filled.rest : undefined,
      timeoutMs: opts.timeoutMs ?? def.timeoutMs,
      usingAuth: opts.usingAuth ?? def.audience !== 'public',
      isTenant: opts.isTenant ?? (tenantLevel ? true : here.isTenant),
      domain: opts.domain ?? (tenantLevel ? undefined : here.domain),
      credentials: opts.credentials,
      silent: opts.silent,
      responseType: opts.responseType ?? (def.stream ? 'text' : 'json'),
    });
  }

  return { request, call };
}

/** Success everywhere: HTTP 200 and response_result 0. */
export function isOk<O>(r: ApiResult<Envelope<O>>): r is ApiResult<O & { response_result: 0 }> {
  return r.code === 200 && (r.body as { response_result?: unknown } | null)?.response_result === Result.OK;
}

/** The envelope's failure code of a 4xx answer, if any. */
export function resultCode(r: ApiResult<unknown>): number | undefined {
  const code = (r.body as { response_result?: unknown } | null)?.response_result;
  return typeof code === 'number' ? code : undefined;
}

export { areaOf };
