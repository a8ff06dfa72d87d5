// The condition functions (queryType condition / condition_bool): BOOL (is the condition true), MATH (a number),
// FORMAT (text with `{variable}` holes), IFELSE (the true or the false value; text values are templates too).
import { T } from '@sentra/contracts';
import {
  ExpressionError,
  compiled,
  evaluate,
  parseTemplate,
  renderTemplate,
  templateVariables,
  variablesOf,
  type ExprValue,
  type VariableLookup,
} from '../expression.js';

export const CONDITIONS = ['BOOL', 'FORMAT', 'IFELSE', 'MATH'] as const;
export type ConditionFn = (typeof CONDITIONS)[number];
export const isCondition = (q: string): q is ConditionFn => (CONDITIONS as readonly string[]).includes(q);

const templates = new Map<string, ReturnType<typeof parseTemplate>>();
function template(src: string) {
  let t = templates.get(src);
  if (!t) {
    t = parseTemplate(src);
    if (templates.size > 5000) templates.clear();
    templates.set(src, t);
  }
  return t;
}

export const truthy = (v: ExprValue): boolean => v !== null && v !== false && v !== 0 && v !== '';

/** Numbers in text: at most `decimals` places, no trailing zeros. */
export function formatNumber(v: ExprValue, decimals: number): string {
  if (typeof v === 'number') return String(Number(v.toFixed(decimals)));
  return v === null ? '' : String(v);
}

export interface ConditionQuery {
  condition?: string;
  true_condition?: string | number;
  false_condition?: string | number;
}

/** Evaluates a condition function; throws ExpressionError (shown on the card) for a bad expression or value. */
export function evaluateCondition(
  fn: ConditionFn,
  q: ConditionQuery,
  lookup: VariableLookup,
  decimals: number,
): ExprValue {
  const src = q.condition ?? '';
  switch (fn) {
    case 'BOOL':
      return truthy(evaluate(compiled(src), lookup));
    case 'MATH': {
      const v = evaluate(compiled(src), lookup);
      if (v !== null && typeof v !== 'number') throw new ExpressionError(T.cards.notANumber(`'${String(v)}'`));
      return v;
    }
    case 'FORMAT':
      return renderTemplate(template(src), lookup, (v) => formatNumber(v, decimals));
    case 'IFELSE': {
      const chosen = truthy(evaluate(compiled(src), lookup)) ? q.true_condition : q.false_condition;
      if (typeof chosen === 'string') return renderTemplate(template(chosen), lookup, (v) => formatNumber(v, decimals));
      return chosen ?? null;
    }
  }
}

/**
 * The variables a condition function may read: the card engine resolves them (reads, asynchronous) before it evaluates
 * the condition, which is synchronous. A source that does not parse reads none (evaluating it names the error).
 */
export function conditionVariables(fn: ConditionFn, q: ConditionQuery): Set<string> {
  const out = new Set<string>();
  const add = (f: () => Set<string>) => {
    try {
      for (const v of f()) out.add(v);
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
    }
  };
  const src = q.condition ?? '';
  if (fn === 'FORMAT') add(() => templateVariables(template(src)));
  else add(() => variablesOf(compiled(src)));
  if (fn === 'IFELSE')
    for (const chosen of [q.true_condition, q.false_condition])
      if (typeof chosen === 'string') add(() => templateVariables(template(chosen)));
  return out;
}
