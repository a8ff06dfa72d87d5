// The hostile inputs of robustness.http.test: what a client can put in a path segment, a query, a JSON body or the
// raw request, each as the text that travels (a JSON fragment for a field, a raw path segment), built once.
import { z } from 'zod';
import { pathParams, type CallDef } from '@sentra/contracts';

/** One request to make: `what` names the input in a failure message. */
export interface Attempt {
  what: string;
  path: string;
  query?: string;
  body?: string;
  headers?: Record<string, string>;
}

/** JSON text of a value `depth` levels deep, written as text (JSON.stringify would recurse that deep). */
export const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const str = (s: string) => JSON.stringify(s);

/** A field's hostile values as JSON fragments: wrong types, numbers at the edges, odd text, deep and polluting objects. */
const FIELD_VALUES: [string, string][] = [
  ['"abc"', str('abc')],
  ['""', str('')],
  ['"   "', str('   ')],
  ['0', '0'],
  ['-1', '-1'],
  ['-0', '-0'],
  ['1.5', '1.5'],
  ['1e308', '1e308'],
  ['-1e308', '-1e308'],
  ['1e309 (Infinity once parsed)', '1e309'],
  ['99999999999999999999', '99999999999999999999'],
  ['2^53+1', '9007199254740993'],
  ['"NaN"', str('NaN')],
  ['"1e309"', str('1e309')],
  ['"Infinity"', str('Infinity')],
  ['"-Infinity"', str('-Infinity')],
  ['"0x10"', str('0x10')],
  ['"99999999999999999999"', str('99999999999999999999')],
  ['"-1"', str('-1')],
  ['true', 'true'],
  ['false', 'false'],
  ['null', 'null'],
  ['{}', '{}'],
  ['[]', '[]'],
  ['[1,"a",null]', '[1,"a",null]'],
  ['{"a":{"b":[1]}}', '{"a":{"b":[1]}}'],
  ['{"__proto__":...}', '{"__proto__":{"polluted":true}}'],
  ['{"constructor":{"prototype":...}}', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['"__proto__"', str('__proto__')],
  ['"constructor"', str('constructor')],
  ['NUL', str('a\u0000b')],
  ['unicode', str('Ünïcödé 日本語 🙂 \u202e اختبار')],
  ['a lone surrogate', '"\\ud800"'],
  ['SQL', str("'; drop table x;--")],
  ['a 10,000-char string', str('x'.repeat(10_000))],
];

/** Only in a query: deep values that still fit a URL (Node answers 431 above 16 KB of headers). */
const QUERY_ONLY_VALUES: [string, string][] = [
  ['an object 500 deep', deepObject(500)],
  ['an array 1,000 deep', deepArray(1000)],
];

/** Only in a JSON body: these do not fit a URL. */
const BODY_ONLY_VALUES: [string, string][] = [
  ['an object 5,000 deep', deepObject(5000)],
  ['an array 5,000 deep', deepArray(5000)],
  ['a 1 MB string', str('x'.repeat(1024 * 1024))],
  ['an object 20,000 deep', deepObject(20_000)],
  ['an array 20,000 deep', deepArray(20_000)],
];

/** Path segments as they travel (already escaped where needed): garbage, edges, broken escapes. */
export const PATH_VALUES: [string, string][] = [
  ['abc', 'abc'],
  ['-1', '-1'],
  ['0', '0'],
  ['-0', '-0'],
  ['1.5', '1.5'],
  ['1e3', '1e3'],
  ['0x10', '0x10'],
  ['" 1"', '%201'],
  ['99999999999999999999', '99999999999999999999'],
  ['a 70-digit number', '9'.repeat(70)],
  ['Infinity', 'Infinity'],
  ['NaN', 'NaN'],
  ['%00', '%00'],
  ['1%00', '1%00'],
  ['a broken escape', '%E0%A4%A'],
  ['%2F', '%2F'],
  ['SQL', encodeURIComponent("'; drop table x;--")],
  ['a 5,000-char string', 'x'.repeat(5000)],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['unicode', encodeURIComponent('日本語🙂')],
];

/** Whole POST bodies that are not the object a call takes, and raw bodies a JSON parser must refuse. */
const RAW_BODIES: { what: string; body: string; type?: string; headers?: Record<string, string> }[] = [
  { what: 'no body', body: '' },
  { what: 'null', body: 'null' },
  { what: 'an array', body: '[]' },
  { what: '[{}]', body: '[{}]' },
  { what: 'a string', body: '"text"' },
  { what: 'a number', body: '42' },
  { what: 'true', body: 'true' },
  { what: 'malformed JSON', body: '{"a":' },
  { what: 'a trailing comma', body: '{"a":1,}' },
  { what: 'a BOM', body: '\ufeff{}' },
  { what: 'a root array 100,000 deep', body: deepArray(100_000) },
  { what: 'a body over the 2 MB limit', body: JSON.stringify({ x: 'x'.repeat(2.5 * 1024 * 1024) }) },
  { what: 'an unsupported charset', body: '{}', type: 'application/json; charset=utf-7' },
  { what: 'gzip that is not gzip', body: '{}', headers: { 'content-encoding': 'gzip' } },
  { what: 'an unknown content-encoding', body: '{}', headers: { 'content-encoding': 'br2' } },
];

/** Hostile auth headers: the authenticator reads them before any input. */
const HEADER_VALUES: [string, Record<string, string>][] = [
  ['x-tenant-id 99999999999999999999', { 'x-tenant-id': '99999999999999999999' }],
  ['a 5,000-char token', { 'x-tenant-token': 'x'.repeat(5000) }],
  ['x-app-domain __proto__', { 'x-app-domain': '__proto__' }],
  ['x-account-id abc beside the tenant', { 'x-account-id': 'abc', 'x-account-token': 'x' }],
];

/** The object schema under refinements, preprocessing and transforms. */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const seen: z.ZodType[] = [schema];
  while (seen.length) {
    const s = seen.shift() as z.ZodType & { shape?: Record<string, z.ZodType> };
    if (s instanceof z.ZodObject) return s.shape as Record<string, z.ZodType>;
    const def = (s as unknown as { _zod: { def: { in?: z.ZodType; out?: z.ZodType; innerType?: z.ZodType } } })._zod
      .def;
    for (const next of [def.in, def.out, def.innerType]) if (next) seen.push(next);
  }
  return {};
}

/** A field's own bounds (its zod checks' bag), under optional, default, nullable and pipes. */
function boundsOf(schema: z.ZodType): { minimum?: number; maximum?: number; minLength?: number; maxLength?: number } {
  const bag: Record<string, unknown> = {};
  const seen: z.ZodType[] = [schema];
  while (seen.length) {
    const s = seen.shift() as unknown as {
      _zod: { bag: Record<string, unknown>; def: { in?: z.ZodType; out?: z.ZodType; innerType?: z.ZodType } };
    };
    for (const [k, v] of Object.entries(s._zod.bag ?? {}))
      if (typeof v === 'number' && Number.isFinite(v) && !(k in bag)) bag[k] = v;
    for (const next of [s._zod.def.in, s._zod.def.out, s._zod.def.innerType]) if (next) seen.push(next as never);
  }
  return bag as never;
}

/** Values at and just past the field's own bounds, generated from its schema: they pass or fail by one. */
function boundaryValues(schema: z.ZodType): [string, string][] {
  const b = boundsOf(schema);
  const out: [string, string][] = [];
  if (b.maxLength !== undefined) {
    out.push([`${b.maxLength} chars (its max)`, str('x'.repeat(b.maxLength))]);
    out.push([`${b.maxLength + 1} chars (max + 1)`, str('x'.repeat(b.maxLength + 1))]);
    out.push([`${b.maxLength} two-byte chars`, str('é'.repeat(b.maxLength))]);
    out.push([`${b.maxLength} emoji`, str('🙂'.repeat(b.maxLength))]);
  }
  if (b.maximum !== undefined)
    out.push([`${b.maximum} (its max)`, String(b.maximum)], [`${b.maximum} + 1`, String(b.maximum + 1)]);
  if (b.minimum !== undefined)
    out.push([`${b.minimum} (its min)`, String(b.minimum)], [`${b.minimum} - 1`, String(b.minimum - 1)]);
  return out;
}

/** A JSON fragment as a query value: a string travels as itself, anything else as its JSON text (as the web sends it). */
function queryValue(json: string): string {
  const v: unknown = json.length < 100_000 ? JSON.parse(json) : undefined;
  return typeof v === 'string' ? v : json;
}

/** encodeURIComponent, except that a lone surrogate travels as its raw (ill-formed) UTF-8 bytes instead of throwing. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return s
      .split(/([\ud800-\udfff])/)
      .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
      .join('');
  }
};

/**
 * Every attempt for one call, around a valid `base` input (path parameters included): each path parameter replaced,
 * each field replaced (JSON body of a POST, query of a GET), whole bodies, raw bodies, repeated and bracketed query
 * keys, and hostile auth headers.
 */
export function attemptsOf(def: CallDef, base: Record<string, unknown>): Attempt[] {
  const params = pathParams(def.path);
  const shape = shapeOf(def.input);
  const fields = [...new Set([...Object.keys(shape), ...Object.keys(base)])].filter((f) => !params.includes(f));
  const rest = Object.fromEntries(Object.entries(base).filter(([k]) => !params.includes(k)));
  const fill = (over: Record<string, string> = {}) =>
    def.path.replace(/\{(\w+)\}/g, (_, name: string) => over[name] ?? enc(String(base[name])));
  const path = fill();
  const list: Attempt[] = [];
  // the JSON text of `rest` with one field's fragment in place (or removed), spliced as text
  const bodyWith = (field: string, json: string | undefined) => {
    const parts = Object.entries(rest)
      .filter(([k]) => k !== field)
      .map(([k, v]) => `${str(k)}:${JSON.stringify(v)}`);
    if (json !== undefined) parts.push(`${str(field)}:${json}`);
    return `{${parts.join(',')}}`;
  };
  const queryOf = (over: Record<string, unknown>) =>
    Object.entries(over)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${enc(k)}=${enc(typeof v === 'object' ? JSON.stringify(v) : String(v))}`);
  const queryWith = (field: string, raw: string[]) =>
    [...queryOf(Object.fromEntries(Object.entries(rest).filter(([k]) => k !== field))), ...raw].join('&');

  list.push(
    def.method === 'GET'
      ? { what: 'the valid input', path, query: queryOf(rest).join('&') }
      : { what: 'the valid input', path, body: JSON.stringify(rest) },
  );
  const baseRequest = def.method === 'GET' ? { query: queryOf(rest).join('&') } : { body: JSON.stringify(rest) };
  for (const name of params) {
    for (const [what, segment] of PATH_VALUES)
      list.push({ what: `path {${name}} = ${what}`, path: fill({ [name]: segment }), ...baseRequest });
  }
  for (const field of fields) {
    const own = rest[field];
    // its valid object (or JSON text of one) with a hostile field of its own beside what it holds
    const inside = (json: string) =>
      own === '{}' || (typeof own === 'object' && Object.keys(own as object).length === 0)
        ? `{${json}}`
        : `{${json},${(typeof own === 'string' ? own : JSON.stringify(own)).slice(1)}`;
    const insideValues: [string, string][] = [];
    if (own !== null && typeof own === 'object' && !Array.isArray(own)) {
      insideValues.push(['its valid value with a 5,000-deep field inside', inside(`"zzz":${deepObject(5000)}`)]);
      insideValues.push(['its valid value with a __proto__ field inside', inside('"__proto__":{"polluted":true}')]);
    }
    if (
      (own !== null && typeof own === 'object' && !Array.isArray(own)) ||
      (typeof own === 'string' && own.startsWith('{'))
    ) {
      insideValues.push([
        'its valid value as JSON text with a 5,000-deep field inside',
        str(inside(`"zzz":${deepObject(5000)}`)),
      ]);
      insideValues.push([
        'its valid value as JSON text with a __proto__ field inside',
        str(inside('"__proto__":{"polluted":{"x":1}}')),
      ]);
    }
    const values = [
      ...FIELD_VALUES,
      ...(shape[field] ? boundaryValues(shape[field]) : []),
      ...(def.method === 'POST' ? [...BODY_ONLY_VALUES, ...insideValues] : QUERY_ONLY_VALUES),
    ];
    if (def.method === 'POST') {
      list.push({ what: `${field} left out`, path, body: bodyWith(field, undefined) });
      for (const [what, json] of values) list.push({ what: `${field} = ${what}`, path, body: bodyWith(field, json) });
    } else {
      list.push({ what: `${field} left out`, path, query: queryWith(field, []) });
      for (const [what, json] of values)
        list.push({
          what: `${field} = ${what}`,
          path,
          query: queryWith(field, [`${enc(field)}=${enc(queryValue(json))}`]),
        });
      list.push({
        what: `${field} repeated (${field}=1&${field}=2)`,
        path,
        query: queryWith(field, [`${enc(field)}=1`, `${enc(field)}=2`]),
      });
      list.push({
        what: `${field} repeated with its valid value`,
        path,
        query: queryWith(field, [
          ...queryOf({ [field]: rest[field] ?? 'a' }),
          ...queryOf({ [field]: rest[field] ?? 'a' }),
        ]),
      });
      list.push({ what: `${field}[b]=c`, path, query: queryWith(field, [`${enc(field)}[b]=c`]) });
      list.push({ what: `${field}[]=1`, path, query: queryWith(field, [`${enc(field)}[]=1`]) });
    }
  }
  if (def.method === 'POST') {
    const json = JSON.stringify(rest);
    const spliced = (key: string) => `{${str(key)}:{"polluted":true}${json === '{}' ? '' : `,${json.slice(1, -1)}`}}`;
    list.push({ what: 'a top-level __proto__ key', path, body: spliced('__proto__') });
    list.push({ what: 'a top-level constructor key', path, body: spliced('constructor') });
    list.push({
      what: 'an unknown extra field',
      path,
      body: `{"zzz_unknown":1${json === '{}' ? '' : `,${json.slice(1, -1)}`}}`,
    });
    for (const raw of RAW_BODIES)
      list.push({
        what: raw.what,
        path,
        body: raw.body,
        headers: { 'content-type': raw.type ?? 'application/json', ...raw.headers },
      });
    list.push({ what: 'JSON sent as text/plain', path, body: json, headers: { 'content-type': 'text/plain' } });
    list.push({ what: 'JSON without a content-type', path, body: json, headers: { 'content-type': '' } });
    list.push({
      what: 'a form-encoded body',
      path,
      body: queryOf(rest).join('&'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  } else {
    list.push({ what: 'an empty query', path, query: '' });
    list.push({
      what: '__proto__ and constructor query keys',
      path,
      query: [queryOf(rest).join('&'), '__proto__=1&constructor[prototype][x]=1&__proto__[polluted]=1']
        .filter(Boolean)
        .join('&'),
    });
    list.push({
      what: 'a broken escape in the query',
      path,
      query: [queryOf(rest).join('&'), 'a=%E0%A4%A&%=1'].filter(Boolean).join('&'),
    });
  }
  for (const [what, headers] of HEADER_VALUES) list.push({ what: `header ${what}`, path, ...baseRequest, headers });
  return list;
}
