// Mounts contract entries on Express: parse and validate the input with the entry's zod schema, authenticate and
// authorise the caller, run the handler under the entry's time-out, and answer the envelope.
import { isStorageFault } from '../db/storage-fault.js';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import {
  Header,
  JSON_DEPTH_MAX,
  Result,
  T,
  jsonDepthWithin,
  type CallDef,
  type Contract,
  type OutputOf,
  type ParsedInputOf,
} from '@sentra/contracts';
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
  /**
   * A hot GET asked again and again with the same URL (the card GET): its parsed input is kept per URL (frozen,
   * shared by the calls), and an answer object returned again is serialised once. Only for a handler whose answers
   * are shared objects nobody changes, and whose input schema gives the same output for the same text.
   */
  hot?: boolean;
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
  /** parses a POST route's JSON body (express.json); the routes are mounted before it, so a GET never runs it */
  parseBody?: RequestHandler;
}

export function issuesToErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** A validation failure answers -10 with every issue, or the call's own code when a documented field failed. */
export function inputError(def: CallDef, error: z.ZodError): ApiError {
  const errors = issuesToErrors(error);
  // the first failing field decides: a documented field answers its call's own code (add application -2, ...)
  const special = def.fieldCodes?.[String(error.issues[0]?.path[0])];
  if (special) return new ApiError(special.code, special.message, 400, errors);
  return invalid(
    errors[0] ? `${errors[0].path ? `${errors[0].path}: ` : ''}${errors[0].message}` : T.common.invalidInput,
    errors,
  );
}

export function authorize(caller: Caller | null, def: CallDef): void {
  if (!caller || caller.kind === 'tenant' || !def.access) return;
  const grants = caller.grants;
  if (!grants) throw forbidden();
  const { navs, permission } = def.access;
  if (navs && navs.length > 0 && !navs.some((n) => grants.navs.has(n))) throw forbidden();
  if (permission && grants.permissions[permission] !== true) throw forbidden(def.access.deniedMessage);
}

function rawInput(req: Request, def: CallDef): Record<string, unknown> {
  const source = def.method === 'GET' ? req.query : req.body;
  if (source !== undefined && (typeof source !== 'object' || source === null || Array.isArray(source))) {
    throw invalid('Body harus berupa objek JSON');
  }
  // a body the gateway could not write back (JSON.stringify recurses) never reaches a call; a query is flat text
  if (def.method === 'POST' && !jsonDepthWithin(source)) throw invalid(T.common.jsonTooDeep(JSON_DEPTH_MAX));
  const nul = nulAt(source) ?? nulAt(req.params);
  if (nul !== undefined) throw invalid(`${nul ? `${nul}: ` : ''}${T.common.nulCharacter}`);
  return { ...(source ?? {}), ...req.params };
}

/**
 * Where a text of the input holds U+0000 (its field's path, '' at the top), if anywhere. PostgreSQL's text cannot hold
 * it (SQLite's can): every call refuses it on both engines alike, instead of failing in the store on one of them.
 * Keys count too (a JSON config's keys are stored). Depth is bounded by the depth check before it.
 */
export function nulAt(v: unknown, path = ''): string | undefined {
  if (typeof v === 'string') return v.includes('\u0000') ? path : undefined;
  if (typeof v !== 'object' || v === null) return undefined;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const at = nulAt(v[i], path ? `${path}.${i}` : String(i));
      if (at !== undefined) return at;
    }
    return undefined;
  }
  for (const key in v) {
    if (key.includes('\u0000')) return path;
    const at = path ? `${path}.${key}` : key;
    const inner = nulAt((v as Record<string, unknown>)[key], at);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * Answers `body` as JSON with the headers res.json sets. A conditional request (If-None-Match, If-Modified-Since)
 * goes through res.json, which decides whether it is a 304; every other answer is written directly.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  if (conditional(res.req)) {
    res.status(status).json(body);
    return;
  }
  const text = JSON.stringify(body);
  sendText(res, status, text, Buffer.byteLength(text));
}

const conditional = (req: Request) =>
  req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;

function sendText(res: Response, status: number, text: string, length: number): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', length);
  res.end(text);
}

/** A successful answer's envelope as JSON, with its length. */
interface Envelope {
  text: string;
  length: number;
}
const envelopes = new WeakMap<object, Envelope>();
/** the envelope of an answer object a hot route returns again: serialised on its first answer only */
function envelopeOf(out: object): Envelope {
  let e = envelopes.get(out);
  if (!e) {
    const text = JSON.stringify({ response_result: Result.OK, ...out });
    envelopes.set(out, (e = { text, length: Buffer.byteLength(text) }));
  }
  return e;
}

/** how many URLs' parsed inputs a hot route keeps (all dropped at once when full), and the longest URL kept */
const HOT_INPUTS_MAX = 1000;
const HOT_URL_MAX = 512;

export function sendError(res: Response, err: ApiError): void {
  if (res.headersSent) return;
  const body: Record<string, unknown> = { response_result: err.code, message: err.message, ...err.extra };
  if (err.errors) body.errors = err.errors;
  // a throttled call says when to come back in the standard header too
  if (err.status === 429 && typeof err.extra?.retry_after === 'number')
    res.setHeader('Retry-After', String(err.extra.retry_after));
  sendJson(res, err.status, body);
}

/** A route's path as segments: text compared as Express does (case-insensitively), `{name}` one non-empty segment. */
type Segment = { text: string; lower: string } | { param: string };

interface MountedRoute {
  method: 'GET' | 'POST';
  segments: Segment[];
  run: (req: Request, res: Response) => Promise<void>;
}

const compile = (path: string): Segment[] =>
  path.split('/').map((part) => {
    const param = /^\{(\w+)\}$/.exec(part);
    return param ? { param: param[1]! } : { text: part, lower: part.toLowerCase() };
  });

/** A path parameter as the router decodes it: percent-decoded, a broken escape is a 400 for the error handler. */
function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (err) {
    if (err instanceof URIError) Object.assign(err, { status: 400, statusCode: 400 });
    throw err;
  }
}

/** The parameters of `parts` (a request path split at '/') for `route`, or null when the path is not the route's. */
function matchRoute(route: MountedRoute, parts: string[]): Record<string, string> | null {
  const segments = route.segments;
  if (segments.length !== parts.length) return null;
  let params: Record<string, string> | null = null;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if ('param' in seg) {
      if (part === '') return null;
      (params ??= {})[seg.param] = part;
    } else if (part !== seg.text && part.toLowerCase() !== seg.lower) return null;
  }
  params ??= {};
  for (const name in params) params[name] = decodeParam(params[name]!);
  return params;
}

/** A call whose answer is pending, with the time its time-out is due. */
interface Pending {
  due: number;
  res: Response;
  /** answered with the time-out: what the handler answers later is dropped */
  late: boolean;
}
/** how often the calls in flight are checked against their time-outs (a time-out is answered up to this late) */
const SWEEP_MS = 100;
const pending = new Set<Pending>();
let sweeper: NodeJS.Timeout | undefined;
/**
 * One sweep answers every call past its time-out (503, the time-out text): no timer, promise and race per call, which
 * cost a card query a few per cent of its CPU. The sweep runs only while calls are in flight.
 */
function sweep() {
  const now = Date.now();
  for (const p of pending)
    if (p.due <= now) {
      pending.delete(p);
      p.late = true;
      sendError(p.res, new ApiError(Result.UNEXPECTED, T.common.timeout, 503));
    }
  if (pending.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}
function awaitInTime(p: Pending) {
  pending.add(p);
  if (!sweeper) {
    sweeper = setInterval(sweep, SWEEP_MS);
    sweeper.unref();
  }
}

/** The route's request handler: authenticate, authorise, parse, run under the time-out, answer the envelope. */
function runner({ def, handler, hot }: BoundRoute, opts: MountOptions): MountedRoute['run'] {
  // a hot route's inputs by URL: a GET's input is its path parameters and its query, both read from the URL alone
  const inputs = new Map<string, unknown>();
  const parse = (req: Request): unknown => {
    const keep = hot && req.url.length <= HOT_URL_MAX;
    const kept = keep ? inputs.get(req.url) : undefined;
    if (kept !== undefined) return kept;
    const parsed = def.input.safeParse(rawInput(req, def));
    if (!parsed.success) throw inputError(def, parsed.error);
    if (keep) {
      if (inputs.size >= HOT_INPUTS_MAX) inputs.clear();
      inputs.set(req.url, Object.freeze(parsed.data));
    }
    return parsed.data;
  };
  return async (req, res) => {
    let call: Pending | undefined;
    try {
      const resolved = opts.authenticate(req, def);
      const caller = resolved instanceof Promise ? await resolved : resolved;
      authorize(caller, def);
      const input = parse(req);
      const appDomain = req.get(Header.appDomain) ?? undefined;
      const started = Date.now();
      let out = handler({ input, caller, appDomain, req, res } as CallContext<CallDef>);
      // a handler that answered synchronously is done: only a pending answer is watched for its time-out
      if (out instanceof Promise) {
        awaitInTime((call = { due: started + def.timeoutMs, res, late: false }));
        out = await out;
        if (call.late) return;
      }
      if (def.stream) return;
      if (opts.checkOutput) {
        const checked = def.output.safeParse(out);
        if (!checked.success) {
          opts.log.error(`output of ${def.method} ${def.path} breaks its contract`, checked.error.issues);
          throw new ApiError(Result.UNEXPECTED, T.common.unexpected, 500);
        }
      }
      if (hot && !conditional(req)) {
        const e = envelopeOf(out as object);
        return sendText(res, 200, e.text, e.length);
      }
      sendJson(res, 200, { response_result: Result.OK, ...(out as object) });
    } catch (err) {
      // answered with the time-out already: the handler's later failure has nobody to go to
      if (call?.late) return;
      if (err instanceof ApiError) return sendError(res, err);
      // disk full or read-only: the client's call was fine, the server cannot store it now (docs/decisions/ingest.md)
      if (isStorageFault(err)) {
        opts.log.warn(
          `${def.method} ${def.path}: storage unavailable: ${err instanceof Error ? err.message : String(err)}`,
        );
        return sendError(res, new ApiError(Result.STORAGE_UNAVAILABLE, T.common.storageUnavailable, 503));
      }
      opts.log.error(`${def.method} ${def.path} failed`, err);
      sendError(res, new ApiError(Result.UNEXPECTED, T.common.unexpected, 500));
    } finally {
      if (call) pending.delete(call);
    }
  };
}

/** OPTIONS on a route's path answers the methods it takes, as Express' router does. */
function sendAllow(res: Response, methods: Set<string>): void {
  const allow = [...methods].sort().join(', ');
  res.setHeader('Allow', allow);
  res.setHeader('Content-Length', Buffer.byteLength(allow));
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(allow);
}

/**
 * Mounts the routes as one middleware. Matching is Express' (first declared wins, text case-insensitive, one
 * optional trailing slash, `{name}` = one segment, percent-decoded; HEAD runs the GET route), but routes are looked up
 * by method and segment count instead of trying ~130 regular expressions one after another on every request.
 */
export function mountRoutes(app: Pick<Router, 'use'>, routes: BoundRoute[], opts: MountOptions): void {
  const table = new Map<string, MountedRoute[]>();
  const all: MountedRoute[] = [];
  for (const bound of routes) {
    const def = bound.def;
    const route: MountedRoute = { method: def.method, segments: compile(def.path), run: runner(bound, opts) };
    const key = `${def.method} ${route.segments.length}`;
    table.set(key, [...(table.get(key) ?? []), route]);
    all.push(route);
  }
  app.use((req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    const parts = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
    try {
      if (req.method === 'OPTIONS') {
        const methods = new Set<string>();
        for (const route of all)
          if (matchRoute(route, parts))
            route.method === 'GET' ? methods.add('GET').add('HEAD') : methods.add(route.method);
        return methods.size ? sendAllow(res, methods) : next();
      }
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      for (const route of table.get(`${method} ${parts.length}`) ?? []) {
        const params = matchRoute(route, parts);
        if (params) {
          req.params = params;
          if (route.method === 'GET' || !opts.parseBody) return void route.run(req, res);
          return opts.parseBody(req, res, (err?: unknown) => (err ? next(err) : void route.run(req, res)));
        }
      }
    } catch (err) {
      return next(err);
    }
    next();
  });
}
