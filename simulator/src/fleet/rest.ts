// The gateway's REST API as a user's browser calls it: by contract entry (no path strings), tenant sign-in headers,
// the application's domain; failures as RestError with the envelope's code and message.
import { authContract, fillPath, Header, type CallDef, type InputOf, type OutputOf } from '@sentra/contracts';

export class RestError extends Error {
  constructor(
    readonly call: string,
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(`${call}: HTTP ${status}${code === undefined ? '' : ` (${code})`} ${message}`);
  }
}

export interface Session {
  tenantId: number;
  token: string;
}

export class RestClient {
  session?: Session;
  domain?: string;

  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 30_000,
  ) {}

  async call<C extends CallDef>(def: C, input: InputOf<C> | Record<string, unknown> = {}): Promise<OutputOf<C>> {
    const { path, rest } = fillPath(def.path, input as Record<string, unknown>);
    const headers: Record<string, string> = {};
    if (this.session) {
      headers[Header.tenantId] = String(this.session.tenantId);
      headers[Header.tenantToken] = this.session.token;
    }
    if (this.domain && def.audience === 'member') headers[Header.appDomain] = this.domain;
    let url = this.baseUrl.replace(/\/$/, '') + path;
    let body: string | undefined;
    if (def.method === 'GET') {
      const qs = new URLSearchParams(
        Object.entries(rest)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
      );
      if ([...qs].length) url += `?${qs}`;
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(rest);
    }
    const res = await fetch(url, {
      method: def.method,
      headers,
      body,
      signal: AbortSignal.timeout(Math.min(def.timeoutMs, this.timeoutMs)),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* a non-JSON answer is an error below */
    }
    const code = typeof parsed.response_result === 'number' ? parsed.response_result : undefined;
    if (res.status !== 200 || code !== 0) {
      const message = typeof parsed.message === 'string' ? parsed.message : text.slice(0, 200);
      throw new RestError(`${def.method} ${def.path}`, res.status, code, message);
    }
    return parsed as OutputOf<C>;
  }

  async signIn(username: string, password: string): Promise<Session> {
    const r = await this.call(authContract.tenantLogin, { input: username, pass: password });
    this.session = { tenantId: r.id, token: r.token };
    return this.session;
  }
}

/** Runs `tasks` with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Retries `attempt` until it answers, at most `tries` times, `delayMs` apart (activation checks wait for the broker). */
export async function retry<T>(attempt: () => Promise<T>, tries: number, delayMs: number): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= tries) throw err;
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}
