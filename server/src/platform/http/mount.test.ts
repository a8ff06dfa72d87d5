// The route table matches paths as Express' router did (the calls were mounted one Express route each before):
// case, trailing slash, decoding, first declared wins, HEAD and OPTIONS, JSON bodies for POST only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall, JSON_DEPTH_MAX, Result, T } from '@sentra/contracts';
import { createLogger } from '../log.js';
import { until } from '../testing/until.js';
import { implement } from './mount.js';
import { createHttpApp } from './server.js';

const itemContract = {
  one: defineCall({
    method: 'GET',
    path: '/service/web/test/item/{id}',
    summary: 'one',
    audience: 'public',
    input: z.object({ id: z.string() }),
    output: z.object({ id: z.string() }),
  }),
  // declared after the parameter route: Express gave `list` to the first, and so does the table
  list: defineCall({
    method: 'GET',
    path: '/service/web/test/item/list',
    summary: 'list',
    audience: 'public',
    input: z.object({}),
    output: z.object({ id: z.string() }),
  }),
  save: defineCall({
    method: 'POST',
    path: '/service/web/test/item/{id}',
    summary: 'save',
    audience: 'public',
    input: z.object({ id: z.string(), name: z.string() }),
    output: z.object({ id: z.string(), name: z.string() }),
  }),
  // answers after `ms`, or fails then when `fail` is set; its time-out is 150 ms
  slow: defineCall({
    method: 'GET',
    path: '/service/web/test/slow',
    summary: 'slow',
    audience: 'public',
    timeoutMs: 150,
    input: z.object({ ms: z.coerce.number(), fail: z.string().optional() }),
    output: z.object({ ms: z.number() }),
  }),
  pair: defineCall({
    method: 'GET',
    path: '/fetch/web/test/{a}/{b}',
    summary: 'pair',
    audience: 'public',
    input: z.object({ a: z.string(), b: z.string(), q: z.string().optional() }),
    output: z.object({}).loose(),
  }),
  // mounted hot (below): every parse of its input is counted
  hot: defineCall({
    method: 'GET',
    path: '/fetch/web/hot/{n}',
    summary: 'hot',
    audience: 'public',
    input: z.object({
      n: z.coerce
        .number()
        .int()
        .transform((n) => (hotParses++, n)),
      q: z.string().optional(),
    }),
    // not read by the output check (it would count as a serialisation)
    output: z.unknown(),
  }),
};

let hotParses = 0;
/** the hot route's answers by n: shared objects, replaced (never changed) for a new answer; `v` counts its reads */
const hotAnswers = new Map<number, object>();
let hotReads = 0;
const hotAnswer = (v: string) => ({
  get v() {
    hotReads++;
    return v;
  },
});
const hotInputs: unknown[] = [];

let server: http.Server;
/** the slow handler's ends, in order */
const slowEnded: number[] = [];
let base: string;
beforeAll(async () => {
  const routes = implement(itemContract, {
    one: ({ input }) => ({ id: input.id }),
    list: () => ({ id: 'list' }),
    save: ({ input }) => input,
    pair: ({ input }) => input,
    hot: () => ({}),
    slow: async ({ input }) => {
      await new Promise((r) => setTimeout(r, input.ms));
      // answered (or failed) now: the test waits for these instead of a fixed time
      slowEnded.push(input.ms);
      if (input.fail) throw new Error('failed after its time-out');
      return { ms: input.ms };
    },
  });
  const hot = routes.find((r) => r.def === itemContract.hot)!;
  hot.hot = true;
  hot.handler = ({ input }) => {
    hotInputs.push(input);
    const n = (input as { n: number }).n;
    if (!hotAnswers.has(n)) hotAnswers.set(n, hotAnswer(`a${n}`));
    return hotAnswers.get(n)!;
  };
  const app = createHttpApp({ routes, authenticate: () => null, log: createLogger('silent'), checkOutput: true });
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = async (p: string, init: RequestInit = {}) => {
  const res = await fetch(base + p, init);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
};

describe('route table', () => {
  it('matches the path text case-insensitively, with one optional trailing slash', async () => {
    expect((await get('/service/web/test/item/7')).body).toEqual({ response_result: 0, id: '7' });
    expect((await get('/SERVICE/Web/test/item/Ab/')).body).toEqual({ response_result: 0, id: 'Ab' });
    expect((await get('/service/web/test/item/7//')).status).toBe(404);
    expect((await get('/service/web/test/item/')).body.response_result).toBe(Result.NOT_FOUND);
  });

  it('gives a path to the first declared route that matches it', async () => {
    expect((await get('/service/web/test/item/list')).body).toEqual({ response_result: 0, id: 'list' });
  });

  it('decodes percent-escaped parameters, and answers -10 for a broken escape', async () => {
    expect((await get('/service/web/test/item/a%20b%2Fc')).body).toEqual({ response_result: 0, id: 'a b/c' });
    const broken = await get('/service/web/test/item/%E0%A4%A');
    expect(broken.status).toBe(400);
    expect(broken.body.response_result).toBe(Result.INVALID);
  });

  it('merges path parameters over the query of a GET', async () => {
    expect((await get('/fetch/web/test/x/y?q=1&a=z')).body).toEqual({ response_result: 0, a: 'x', b: 'y', q: '1' });
  });

  it('answers the JSON envelope with the headers res.json sets', async () => {
    const r = await get('/service/web/test/item/7');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('content-length')).toBe(String(Buffer.byteLength(r.text)));
  });

  it('runs the GET route for HEAD, without a body', async () => {
    const r = await fetch(`${base}/service/web/test/item/7`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await r.text()).toBe('');
  });

  it('answers OPTIONS with the methods of the path, as Express does', async () => {
    const r = await fetch(`${base}/service/web/test/item/7`, { method: 'OPTIONS' });
    expect(r.status).toBe(200);
    expect(r.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await r.text()).toBe('GET, HEAD, POST');
    expect((await fetch(`${base}/service/web/test/nothing`, { method: 'OPTIONS' })).status).toBe(404);
  });

  it('leaves a conditional GET to Express (If-None-Match: * is a 304)', async () => {
    // node:http, not fetch: fetch adds `cache-control: no-cache` to a conditional request, which makes it unconditional
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get(
          `${base}/service/web/test/item/7`,
          { headers: { 'if-none-match': '*' } },
          (res) => (res.resume(), resolve(res.statusCode)),
        )
        .on('error', reject);
    });
    expect(status).toBe(304);
  });

  it('parses the JSON body of a POST route; broken JSON is -10', async () => {
    const post = (body: string) =>
      get('/service/web/test/item/7', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post('{"name":"pompa"}')).body).toEqual({ response_result: 0, id: '7', name: 'pompa' });
    const broken = await post('{"name":');
    expect(broken.status).toBe(400);
    expect(broken.body.response_result).toBe(Result.INVALID);
  });

  it('answers -10 for a JSON body nested deeper than JSON_DEPTH_MAX, which JSON.stringify could not write back', async () => {
    const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const post = (body: string) =>
      get('/service/web/test/item/7', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post(`{"name":"pompa","extra":${nested(JSON_DEPTH_MAX - 1)}}`)).body).toEqual({
      response_result: 0,
      id: '7',
      name: 'pompa',
    });
    const deep = await post(`{"name":"pompa","extra":${nested(100_000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.response_result).toBe(Result.INVALID);
  });

  it('answers -10 naming the field for a text holding U+0000 (PostgreSQL text cannot hold it), in a body, a key, a query or a path', async () => {
    const post = (body: unknown) =>
      get('/service/web/test/item/7', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = async (r: Promise<{ status: number; body: Record<string, unknown> }>, field: string) => {
      const { status, body } = await r;
      expect(status).toBe(400);
      expect(body.response_result).toBe(Result.INVALID);
      expect(body.message).toBe(`${field ? `${field}: ` : ''}${T.common.nulCharacter}`);
    };
    await refused(post({ name: 'a\u0000b' }), 'name');
    await refused(post({ name: 'pompa', extra: { list: ['ok', { deep: '\u0000' }] } }), 'extra.list.1.deep');
    await refused(post({ name: 'pompa', extra: { 'k\u0000': 1 } }), 'extra');
    await refused(get('/fetch/web/test/x/y?q=a%00b'), 'q');
    await refused(get('/fetch/web/test/x%00/y'), 'a');
    // the escape written out as text is not the character
    expect((await post({ name: 'a\\u0000b' })).body).toEqual({ response_result: 0, id: '7', name: 'a\\u0000b' });
  });

  it('answers -11 for an API path no route has, whatever the method', async () => {
    expect((await get('/service/web/test/other')).body.response_result).toBe(Result.NOT_FOUND);
    expect((await get('/fetch/web/test/x/y', { method: 'POST' })).body.response_result).toBe(Result.NOT_FOUND);
  });

  it('answers 503 with the time-out text once a call runs past its time-out, and what comes after is dropped', async () => {
    expect(await get('/service/web/test/slow?ms=5')).toMatchObject({
      status: 200,
      body: { response_result: Result.OK, ms: 5 },
    });
    for (const q of ['ms=600', 'ms=600&fail=1']) {
      const t = Date.now();
      const r = await get(`/service/web/test/slow?${q}`);
      expect(r, q).toMatchObject({
        status: 503,
        body: { response_result: Result.UNEXPECTED, message: T.common.timeout },
      });
      // due at 150 ms, answered by the next sweep: well before the handler's own answer
      expect(Date.now() - t, q).toBeLessThan(500);
    }
    // the late answers went nowhere and broke nothing: once both handlers ended, the server answers the next call
    expect(await until(() => slowEnded.length === 3, 5_000)).toBe(true);
    expect((await get('/service/web/test/item/x')).body).toMatchObject({ id: 'x' });
  });

  it("keeps a hot route's input per URL, and serialises an answer object it returns again once", async () => {
    const before = { parses: hotParses, reads: hotReads };
    for (let i = 0; i < 3; i++)
      expect((await get('/fetch/web/hot/1')).text).toBe(JSON.stringify({ response_result: 0, v: 'a1' }));
    expect(hotParses - before.parses).toBe(1);
    expect(hotReads - before.reads).toBe(1);
    // the kept input is shared by the calls: nobody may change it
    expect(hotInputs.at(-1)).toBe(hotInputs.at(-2));
    expect(Object.isFrozen(hotInputs.at(-1))).toBe(true);
    // a URL with a query is another input (parsed once too); one too long to keep is parsed every time
    for (let i = 0; i < 2; i++)
      expect((await get('/fetch/web/hot/1?q=x')).body).toEqual({ response_result: 0, v: 'a1' });
    expect(hotParses - before.parses).toBe(2);
    expect(hotInputs.at(-1)).toEqual({ n: 1, q: 'x' });
    const long = `/fetch/web/hot/1?q=${'x'.repeat(600)}`;
    for (let i = 0; i < 2; i++) expect((await get(long)).body).toEqual({ response_result: 0, v: 'a1' });
    expect(hotParses - before.parses).toBe(4);
    // a new answer object is serialised anew
    hotAnswers.set(1, hotAnswer('b1'));
    expect((await get('/fetch/web/hot/1')).body).toEqual({ response_result: 0, v: 'b1' });
    // a refused input is never kept
    for (let i = 0; i < 2; i++) expect((await get('/fetch/web/hot/x')).body.response_result).toBe(Result.INVALID);
    // a conditional request still goes through Express
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get(
          `${base}/fetch/web/hot/1`,
          { headers: { 'if-none-match': '*' } },
          (res) => (res.resume(), resolve(res.statusCode)),
        )
        .on('error', reject);
    });
    expect(status).toBe(304);
  });
});
