// Mounts contract entries on Express: parse and validate the input with the entry's zod schema, authenticate and
// authorise the caller, run the handler under the entry's time-out, and answer the envelope.
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { Header, Result, T, type CallDef, type Contract, type OutputOf, type ParsedInputOf } from '@sentra/contracts';
import { ApiError, forbidden, invalid, type FieldError } from './errors.js';
import type { Logger } from '../log.js';

/** The application a call is scoped to (x-app-domain). */
export interface AppScope {
  id: number;
  tenantId: number;
  domain: string;
  name: string;
  timezone: string;
}

/** Who is calling, as the authenticator resolved it. */
export interface Caller {
  kind: 'tenant' | 'member' | 'credentials';
  tenantId: number;
  /** application user id, for members */
  accountId?: number;
  app?: AppScope;
  /** what a member's role (or a credentials pair's scopes) grants */
  grants?: { navs: ReadonlySet<string>; permissions: Record<string, unknown> };
  /** the presented session token's hash, so logout can end exactly this session */
  sessionHash?: string;
}

export interface CallContext<C extends CallDef> {
  input: ParsedInputOf<C>;
  caller: C['audience'] extends 'public' ? Caller | null : Caller;
  /** the x-app-domain header as sent (public calls read it to find the application) */
  appDomain?: string;
  req: Request;
  res: Response;
}

export type Handler<C extends CallDef> = (ctx: CallContext<C>) => Promise<OutputOf<C>> | OutputOf<C>;
export type Handlers<K extends Contract> = { [N in keyof K]: Handler<K[N]> };

export interface BoundRoute {
  def: CallDef;
  handler: Handler<CallDef>;
}

/** Pairs every call of a contract with its handler; a missing handler is a type error. */
export function implement<K extends Contract>(contract: K, handlers: Handlers<K>): BoundRoute[] {
  return Object.keys(contract).map((name) => ({ def: contract[name]!, handler: handlers[name] as Handler<CallDef> }));
}

export type Authenticate = (req: Request, def: CallDef) => Promise<Caller | null> | Caller | null;

export interface MountOptions {
  authenticate: Authenticate;
  log: Logger;
  /** check every answer against the contract's output schema (on in development and tests) */
  checkOutput: boolean;
}

/** Express path of a spec path: `{id}` → `:id`. */
export const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

export function issuesToErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** A validation failure answers -10 with every issue, or the call's own code when a documented field failed. */
export function inputError(def: CallDef, error: z.ZodError): ApiError {
  const errors = issuesToErrors(error);
  // the first failing field decides: a documented field answers its call's own code (add application -2, ...)
  const special = def.fieldCodes?.[String(error.issues[0]?.path[0])];
  if (special) return new ApiError(special.code, special.message, 400, errors);
  return invalid(errors[0] ? `${errors[0].path ? `${errors[0].path}: ` : ''}${errors[0].message}` : T.common.invalidInput, errors);
}

export function authorize(caller: Caller | null, def: CallDef): void {
  if (!caller || caller.kind === 'tenant' || !def.access) return;
  const grants = caller.grants;
  if (!grants) throw forbidden();
  const { navs, permission } = def.access;
  if (navs && navs.length > 0 && !navs.some((n) => grants.navs.has(n))) throw forbidden();
  if (permission && grants.permissions[permission] !== true) throw forbidden();
}

function rawInput(req: Request, def: CallDef): Record<string, unknown> {
  const source = def.method === 'GET' ? req.query : req.body;
  if (source !== undefined && (typeof source !== 'object' || source === null || Array.isArray(source))) {
    throw invalid('Body harus berupa objek JSON');
  }
  return { ...(source ?? {}), ...req.params };
}

export function sendError(res: Response, err: ApiError): void {
  if (res.headersSent) return;
  const body: Record<string, unknown> = { response_result: err.code, message: err.message, ...err.extra };
  if (err.errors) body.errors = err.errors;
  res.status(err.status).json(body);
}

export function mountRoutes(router: Router, routes: BoundRoute[], opts: MountOptions): void {
  for (const { def, handler } of routes) {
    const verb = def.method === 'GET' ? 'get' : 'post';
    router[verb](expressPath(def.path), async (req: Request, res: Response) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const caller = await opts.authenticate(req, def);
        authorize(caller, def);
        const parsed = def.input.safeParse(rawInput(req, def));
        if (!parsed.success) throw inputError(def, parsed.error);
        const appDomain = req.get(Header.appDomain) ?? undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new ApiError(Result.UNEXPECTED, T.common.timeout, 503)), def.timeoutMs);
        });
        const out = await Promise.race([handler({ input: parsed.data, caller, appDomain, req, res } as CallContext<CallDef>), timeout]);
        if (def.stream) return;
        if (opts.checkOutput) {
          const checked = def.output.safeParse(out);
          if (!checked.success) {
            opts.log.error(`output of ${def.method} ${def.path} breaks its contract`, checked.error.issues);
            throw new ApiError(Result.UNEXPECTED, T.common.unexpected, 500);
          }
        }
        res.json({ response_result: Result.OK, ...(out as object) });
      } catch (err) {
        if (err instanceof ApiError) return sendError(res, err);
        opts.log.error(`${def.method} ${def.path} failed`, err);
        sendError(res, new ApiError(Result.UNEXPECTED, T.common.unexpected, 500));
      } finally {
        if (timer) clearTimeout(timer);
      }
    });
  }
}
