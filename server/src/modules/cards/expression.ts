// The expression language of condition cards and variables (`{var_a} * 2 > {var_b} + {var_c}`): a tokenizer, a
// precedence-climbing parser to a small AST and a tree-walking evaluator. No `eval`, no `new Function`, no property
// access: a name is either `{variable}` (looked up in a Map) or one of the whitelisted functions below.
import { T } from '@sentra/contracts';
import { ownValue } from '../../platform/own.js';

export type ExprValue = number | string | boolean | null;

export type Expr =
  | { k: 'lit'; v: ExprValue }
  | { k: 'var'; name: string }
  | { k: 'un'; op: '-' | '!'; a: Expr }
  | { k: 'bin'; op: string; a: Expr; b: Expr }
  | { k: 'if'; c: Expr; a: Expr; b: Expr }
  | { k: 'call'; fn: string; args: Expr[] };

export class ExpressionError extends Error {}

const MAX_SOURCE = 1000;
const MAX_DEPTH = 40;
const MAX_TEMPLATE_PARTS = 100;

type Token =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'var'; v: string }
  | { t: 'id'; v: string }
  | { t: 'op'; v: string };

const OPS = [
  '&&',
  '||',
  '==',
  '!=',
  '<=',
  '>=',
  '**',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '!',
  '(',
  ')',
  ',',
  '?',
  ':',
  '=',
];
const VAR_NAME = /^[A-Za-z_][\w-]{0,63}$/;

const bad = (detail: string) => new ExpressionError(T.cards.expressionInvalid(detail));

function tokenize(src: string): Token[] {
  if (src.length > MAX_SOURCE) throw bad(`lebih dari ${MAX_SOURCE} karakter`);
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9.]/.test(c)) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i));
      if (!m) throw bad(`angka tidak valid di posisi ${i + 1}`);
      out.push({ t: 'num', v: Number(m[0]) });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let s = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\' && j + 1 < src.length) j++;
        s += src[j];
        j++;
      }
      if (j >= src.length) throw bad('teks tanpa tanda kutip penutup');
      out.push({ t: 'str', v: s });
      i = j + 1;
      continue;
    }
    if (c === '{') {
      const close = src.indexOf('}', i);
      if (close < 0) throw bad('kurung kurawal tanpa penutup');
      const name = src.slice(i + 1, close).trim();
      if (!VAR_NAME.test(name)) throw bad(`nama variabel {${name}} tidak valid`);
      out.push({ t: 'var', v: name });
      i = close + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_]\w*/.exec(src.slice(i))!;
      out.push({ t: 'id', v: m[0] });
      i += m[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw bad(`karakter '${c}' tidak dikenal`);
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  return out;
}

/** Functions an expression may call: pure, numeric or textual, nothing reaching outside the value. */
const FUNCTIONS: Record<string, { min: number; max: number; fn: (args: ExprValue[]) => ExprValue }> = {
  abs: { min: 1, max: 1, fn: ([x]) => nullable(x, (n) => Math.abs(n)) },
  round: {
    min: 1,
    max: 2,
    fn: ([x, d]) =>
      nullable(x, (n) => {
        const f = 10 ** Math.max(0, Math.min(10, Math.trunc(d === undefined || d === null ? 0 : num(d, 'round'))));
        return Math.round(n * f) / f;
      }),
  },
  floor: { min: 1, max: 1, fn: ([x]) => nullable(x, Math.floor) },
  ceil: { min: 1, max: 1, fn: ([x]) => nullable(x, Math.ceil) },
  sqrt: { min: 1, max: 1, fn: ([x]) => nullable(x, (n) => (n < 0 ? null : Math.sqrt(n))) },
  pow: { min: 2, max: 2, fn: ([x, y]) => finite(num(x, 'pow') ** num(y, 'pow')) },
  min: {
    min: 1,
    max: 20,
    fn: (args) => (args.some((a) => a === null) ? null : Math.min(...args.map((a) => num(a, 'min')))),
  },
  max: {
    min: 1,
    max: 20,
    fn: (args) => (args.some((a) => a === null) ? null : Math.max(...args.map((a) => num(a, 'max')))),
  },
  upper: { min: 1, max: 1, fn: ([s]) => text(s).toUpperCase() },
  lower: { min: 1, max: 1, fn: ([s]) => text(s).toLowerCase() },
  len: { min: 1, max: 1, fn: ([s]) => text(s).length },
  concat: { min: 1, max: 20, fn: (args) => args.map(text).join('') },
  fixed: {
    min: 2,
    max: 2,
    fn: ([x, d]) =>
      x === null ? null : num(x, 'fixed').toFixed(Math.max(0, Math.min(10, Math.trunc(num(d, 'fixed'))))),
  },
};
const KEYWORDS: Record<string, ExprValue> = { true: true, false: false, null: null };
const WORD_OPS: Record<string, string> = { and: '&&', or: '||', not: '!' };

/** Parses an expression; throws ExpressionError (Indonesian message) on anything it does not understand. */
export function parseExpression(src: string): Expr {
  const tokens = tokenize(src).map((tk): Token =>
    tk.t === 'id' && WORD_OPS[tk.v] ? { t: 'op', v: WORD_OPS[tk.v]! } : tk,
  );
  if (tokens.length === 0) throw bad('kosong');
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (v: string) => peek()?.t === 'op' && peek()!.v === v;
  const expect = (v: string) => {
    if (!isOp(v)) throw bad(`'${v}' diharapkan`);
    pos++;
  };

  function ternary(depth: number): Expr {
    if (depth > MAX_DEPTH) throw bad('terlalu dalam');
    const c = binary(0, depth);
    if (!isOp('?')) return c;
    pos++;
    const a = ternary(depth + 1);
    expect(':');
    const b = ternary(depth + 1);
    return { k: 'if', c, a, b };
  }

  const LEVELS: string[][] = [['||'], ['&&'], ['==', '!=', '='], ['<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']];
  function binary(level: number, depth: number): Expr {
    if (level === LEVELS.length) return unary(depth);
    let a = binary(level + 1, depth + 1);
    while (peek()?.t === 'op' && LEVELS[level]!.includes(String(peek()!.v))) {
      const op = String((tokens[pos++] as { v: string | number }).v);
      const b = binary(level + 1, depth + 1);
      a = { k: 'bin', op: op === '=' ? '==' : op, a, b };
      // comparisons do not chain: `1 < 2 < 3` is a mistake, not a boolean compared with 3
      if (level === 3 && peek()?.t === 'op' && LEVELS[3]!.includes(String(peek()!.v)))
        throw bad('perbandingan berantai');
    }
    return a;
  }

  function unary(depth: number): Expr {
    if (depth > MAX_DEPTH) throw bad('terlalu dalam');
    if (isOp('-') || isOp('!')) {
      const op = (tokens[pos++] as { v: string }).v as '-' | '!';
      return { k: 'un', op, a: unary(depth + 1) };
    }
    if (isOp('+')) {
      pos++;
      return unary(depth + 1);
    }
    const base = primary(depth + 1);
    if (isOp('^') || isOp('**')) {
      pos++;
      return { k: 'bin', op: '^', a: base, b: unary(depth + 1) };
    }
    return base;
  }

  function primary(depth: number): Expr {
    const tk = tokens[pos++];
    if (!tk) throw bad('ekspresi terpotong');
    switch (tk.t) {
      case 'num':
        return { k: 'lit', v: tk.v };
      case 'str':
        return { k: 'lit', v: tk.v };
      case 'var':
        return { k: 'var', name: tk.v };
      case 'id': {
        if (Object.prototype.hasOwnProperty.call(KEYWORDS, tk.v)) return { k: 'lit', v: KEYWORDS[tk.v]! };
        const fn = ownValue(FUNCTIONS, tk.v);
        if (!fn) throw bad(`nama '${tk.v}' tidak dikenal (variabel ditulis {nama})`);
        expect('(');
        const args: Expr[] = [];
        if (!isOp(')')) {
          do args.push(ternary(depth + 1));
          while (isOp(',') && ++pos);
        }
        expect(')');
        if (args.length < fn.min || args.length > fn.max) throw bad(`jumlah argumen ${tk.v}() salah`);
        return { k: 'call', fn: tk.v, args };
      }
      case 'op':
        if (tk.v === '(') {
          const e = ternary(depth + 1);
          expect(')');
          return e;
        }
        throw bad(`'${tk.v}' tidak pada tempatnya`);
    }
  }

  const tree = ternary(0);
  if (pos < tokens.length) throw bad(`sisa '${(tokens[pos] as { v: unknown }).v}' tidak dimengerti`);
  return tree;
}

function num(v: ExprValue, what: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw new ExpressionError(T.cards.notANumber(typeof v === 'string' ? `'${v}'` : `${String(v)} (${what})`));
}
const text = (v: ExprValue): string => (v === null ? '' : typeof v === 'number' ? String(v) : String(v));
const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);
const nullable = (x: ExprValue, fn: (n: number) => number | null): ExprValue =>
  x === null ? null : fn(num(x, 'fungsi'));

function compare(op: string, a: ExprValue, b: ExprValue): boolean {
  if (op === '==' || op === '!=') {
    let eq: boolean;
    if (a === null || b === null) eq = a === b;
    else if (typeof a === 'number' || typeof b === 'number') {
      const x = typeof a === 'number' ? a : Number(a);
      const y = typeof b === 'number' ? b : Number(b);
      eq =
        typeof a === typeof b
          ? a === b
          : !Number.isNaN(x) && x === y && typeof a !== 'boolean' && typeof b !== 'boolean';
    } else eq = a === b;
    return op === '==' ? eq : !eq;
  }
  if (a === null || b === null) return false;
  if (typeof a === 'string' && typeof b === 'string') {
    const c = a < b ? -1 : a > b ? 1 : 0;
    return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  }
  const x = num(a, op);
  const y = num(b, op);
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}

const truthy = (v: ExprValue): boolean => v !== null && v !== false && v !== 0 && v !== '';

/** Looks a variable up; undefined means unknown (an error naming it). */
export type VariableLookup = (name: string) => ExprValue | undefined;

/** Evaluates a parsed expression. Null propagates through arithmetic (a series without data gives no value, not 0). */
export function evaluate(e: Expr, lookup: VariableLookup): ExprValue {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'var': {
      const v = lookup(e.name);
      if (v === undefined) throw new ExpressionError(T.cards.unknownVariable(e.name));
      return v;
    }
    case 'un': {
      const a = evaluate(e.a, lookup);
      if (e.op === '!') return !truthy(a);
      return a === null ? null : -num(a, '-');
    }
    case 'if':
      return truthy(evaluate(e.c, lookup)) ? evaluate(e.a, lookup) : evaluate(e.b, lookup);
    case 'call':
      return FUNCTIONS[e.fn]!.fn(e.args.map((a) => evaluate(a, lookup)));
    case 'bin': {
      if (e.op === '&&') return truthy(evaluate(e.a, lookup)) ? truthy(evaluate(e.b, lookup)) : false;
      if (e.op === '||') return truthy(evaluate(e.a, lookup)) ? true : truthy(evaluate(e.b, lookup));
      const a = evaluate(e.a, lookup);
      const b = evaluate(e.b, lookup);
      if (['==', '!=', '<', '<=', '>', '>='].includes(e.op)) return compare(e.op, a, b);
      if (e.op === '+' && (typeof a === 'string' || typeof b === 'string')) {
        const numeric = (v: ExprValue) =>
          typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
        if (!(numeric(a) && numeric(b))) return text(a) + text(b);
      }
      if (a === null || b === null) return null;
      const x = num(a, e.op);
      const y = num(b, e.op);
      switch (e.op) {
        case '+':
          return finite(x + y);
        case '-':
          return finite(x - y);
        case '*':
          return finite(x * y);
        case '/':
          return y === 0 ? null : finite(x / y);
        case '%':
          return y === 0 ? null : finite(x % y);
        case '^':
          return finite(x ** y);
      }
      throw bad(`operator ${e.op}`);
    }
  }
}

/** The variable names an expression reads (for dependency tracking). */
export function variablesOf(e: Expr, out = new Set<string>()): Set<string> {
  switch (e.k) {
    case 'var':
      out.add(e.name);
      break;
    case 'un':
      variablesOf(e.a, out);
      break;
    case 'bin':
      (variablesOf(e.a, out), variablesOf(e.b, out));
      break;
    case 'if':
      (variablesOf(e.c, out), variablesOf(e.a, out), variablesOf(e.b, out));
      break;
    case 'call':
      e.args.forEach((a) => variablesOf(a, out));
      break;
  }
  return out;
}

/** A parsed FORMAT output: text with `{variable}` holes (and `{= expression}` holes for computed parts). */
export type Template = (string | Expr)[];

export function parseTemplate(src: string): Template {
  if (src.length > MAX_SOURCE) throw bad(`lebih dari ${MAX_SOURCE} karakter`);
  const parts: Template = [];
  let i = 0;
  while (i < src.length) {
    const open = src.indexOf('{', i);
    if (open < 0) {
      parts.push(src.slice(i));
      break;
    }
    if (open > i) parts.push(src.slice(i, open));
    const close = src.indexOf('}', open);
    if (close < 0) throw bad('kurung kurawal tanpa penutup');
    const inner = src.slice(open + 1, close).trim();
    if (inner.startsWith('=')) parts.push(parseExpression(inner.slice(1).replace(/\[([\w-]+)\]/g, '{$1}')));
    else if (VAR_NAME.test(inner)) parts.push({ k: 'var', name: inner });
    else throw bad(`nama variabel {${inner}} tidak valid`);
    i = close + 1;
    if (parts.length > MAX_TEMPLATE_PARTS) throw bad('terlalu banyak bagian');
  }
  return parts;
}

export function renderTemplate(
  t: Template,
  lookup: VariableLookup,
  format: (v: ExprValue) => string = (v) => text(v),
): string {
  return t.map((p) => (typeof p === 'string' ? p : format(evaluate(p, lookup)))).join('');
}

export function templateVariables(t: Template): Set<string> {
  const out = new Set<string>();
  for (const p of t) if (typeof p !== 'string') variablesOf(p, out);
  return out;
}

const cache = new Map<string, Expr | ExpressionError>();
/** parseExpression, memoised (a dashboard's expressions are parsed once, not on every card read) */
export function compiled(src: string): Expr {
  let hit = cache.get(src);
  if (!hit) {
    try {
      hit = parseExpression(src);
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      hit = err;
    }
    if (cache.size > 5000) cache.clear();
    cache.set(src, hit);
  }
  if (hit instanceof ExpressionError) throw hit;
  return hit;
}
