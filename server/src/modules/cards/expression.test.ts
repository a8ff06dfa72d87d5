// The expression language: arithmetic, comparisons, strings, variables, and input that must never reach JavaScript.
import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import {
  ExpressionError,
  evaluate,
  parseExpression,
  parseTemplate,
  renderTemplate,
  type ExprValue,
} from './expression.js';

const vars: Record<string, ExprValue> = {
  var_a: 4,
  var_b: 3,
  var_c: 2,
  name: 'Pompa',
  kosong: null,
  teks: 'abc',
  angka: '12.5',
};
const run = (src: string, v: Record<string, ExprValue> = vars) =>
  evaluate(parseExpression(src), (n) => (Object.prototype.hasOwnProperty.call(v, n) ? v[n] : undefined));
const refusal = (src: string) => {
  try {
    run(src);
  } catch (err) {
    expect(err).toBeInstanceOf(ExpressionError);
    return (err as Error).message;
  }
  throw new Error(`accepted: ${src}`);
};

describe('expressions', () => {
  it("evaluates the spec's example '{var_a} * 2 > {var_b} + {var_c}'", () => {
    expect(run('{var_a} * 2 > {var_b} + {var_c}')).toBe(true);
    expect(run('{var_a} * 2 > {var_b} + {var_c}', { var_a: 2, var_b: 3, var_c: 2 })).toBe(false);
  });
  it('follows arithmetic precedence, unary minus, powers and parentheses', () => {
    expect(run('1 + 2 * 3')).toBe(7);
    expect(run('(1 + 2) * 3')).toBe(9);
    expect(run('-{var_a} + 10 % 4')).toBe(-2);
    expect(run('2 ^ 3 ^ 2')).toBe(512);
    expect(run('{var_a} / {var_c} - 0.5')).toBe(1.5);
    expect(run('round(10 / 3, 2)')).toBe(3.33);
    expect(run('max({var_a}, {var_b}, 7) + min(1, 2) + abs(-1)')).toBe(9);
  });
  it('compares numbers, strings and numeric strings; and/or/not and the ternary', () => {
    expect(run('{angka} > 12')).toBe(true);
    expect(run('{name} == "Pompa"')).toBe(true);
    expect(run("{name} != 'Pompa'")).toBe(false);
    expect(run('{var_a} >= 4 && {var_b} < 3')).toBe(false);
    expect(run('{var_a} >= 4 or not ({var_b} < 3)')).toBe(true);
    expect(run('{var_a} > 3 ? "tinggi" : "rendah"')).toBe('tinggi');
  });
  it('joins text with +, and keeps numeric text numeric', () => {
    expect(run('{name} + " " + {var_a}')).toBe('Pompa 4');
    expect(run('{angka} + 1')).toBe(13.5);
    expect(run('upper({teks}) + len({teks})')).toBe('ABC3');
  });
  it('propagates null through arithmetic (a series without data), and divides by zero to null', () => {
    expect(run('{kosong} * 2')).toBeNull();
    expect(run('{var_a} / 0')).toBeNull();
    expect(run('{kosong} > 1')).toBe(false);
  });
  it('names an unknown variable', () => {
    expect(refusal('{tidak_ada} + 1')).toBe(T.cards.unknownVariable('tidak_ada'));
  });
  it('refuses text in arithmetic with a clear message', () => {
    expect(refusal('{teks} * 2')).toBe(T.cards.notANumber("'abc'"));
  });
  it.each([
    'constructor',
    '__proto__',
    'process',
    'process.exit(1)',
    'this',
    'globalThis',
    '{var_a}.constructor',
    "constructor.constructor('return process')()",
    'require("fs")',
    'eval("1")',
    '[1,2]',
    '{var_a}; 1',
    '`x`',
    'a => a',
  ])('rejects %s', (src) => {
    expect(refusal(src)).toMatch(/^Ekspresi tidak valid/);
  });
  it('treats {__proto__} and {constructor} as unknown variables, never as object internals', () => {
    expect(refusal('{__proto__}')).toBe(T.cards.unknownVariable('__proto__'));
    expect(refusal('{constructor} + 1')).toBe(T.cards.unknownVariable('constructor'));
  });
  it('rejects malformed input: unbalanced parentheses, trailing operators, chained comparisons, oversize', () => {
    for (const src of ['(1 + 2', '1 +', '1 < 2 < 3', '{var_a', '"tanpa akhir', '1 2', '', '1'.repeat(1001)])
      expect(refusal(src)).toMatch(/^Ekspresi tidak valid/);
  });
  it('bounds nesting depth', () => {
    expect(refusal('('.repeat(200) + '1' + ')'.repeat(200))).toMatch(/^Ekspresi tidak valid/);
  });
});

describe('FORMAT templates', () => {
  const lookup = (n: string) => vars[n];
  it('fills {variable} holes and {= expression} holes', () => {
    expect(renderTemplate(parseTemplate('Suhu {var_a} °C, {name}'), lookup)).toBe('Suhu 4 °C, Pompa');
    expect(renderTemplate(parseTemplate('Dua kali: {= [var_a] * 2}'), lookup)).toBe('Dua kali: 8');
  });
  it('rejects a hole that is not a variable name', () => {
    expect(() => parseTemplate('x {process.exit} y')).toThrow(ExpressionError);
  });
});
