// The rule calls of the list, the manual form, the wizard and the "Uji rule" panel (spec 03 section 7 "Rules" and the
// engine's rule/test), as values or a DeviceCallError with the catalogue's message (spec 03 section 8 "Rule") and the
// server's field messages.
import { contracts, T, type CallDef, type InputOf, type OutputOf, type Rule } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { callOrThrow } from '../../api/call.js';
import { isOk, type ApiResult } from '../../api/request.js';
import { callFailure, type DeviceCallError } from '../devices/deviceCalls.js';
import { jsonToDraft, wizardCanEdit, type RuleDraft } from './ruleDraft.js';

export type AddRuleBody = InputOf<typeof contracts.rules.add>;
export type EditRuleBody = InputOf<typeof contracts.rules.edit>;
export type RuleTestBody = InputOf<typeof contracts.rules.test>;
export type RuleTestResult = OutputOf<typeof contracts.rules.test>;

export async function listRules(
  input: InputOf<typeof contracts.rules.list>,
): Promise<{ rules: Rule[]; total: number }> {
  const { rules, total } = await callOrThrow(contracts.rules.list, input, T.shell.loadFailed);
  return { rules, total };
}

export async function getRule(id: number): Promise<Rule> {
  return (await callOrThrow(contracts.rules.get, { id }, T.shell.loadFailed)).data;
}

export interface LoadedRule {
  draft: RuleDraft;
  key?: string;
  /** false when the stored condition has parts the wizard cannot show (OR groups): edit it manually */
  wizardOk: boolean;
}

/** A stored rule as the wizard's draft. */
export async function loadRuleDraft(id: number): Promise<LoadedRule> {
  const rule = await getRule(id);
  return {
    draft: jsonToDraft({ name: rule.name, category: rule.category, description: rule.description }, rule),
    key: rule.key ?? undefined,
    wizardOk: wizardCanEdit(rule.condition),
  };
}

/**
 * A refused save: the catalogue's message, and per field the server's first message with where inside the JSON it
 * points (`triggers.2.op: ...`), so a long condition names its wrong entry.
 */
function saveFailure(r: ApiResult<unknown>, def: CallDef, fallback: string): DeviceCallError {
  const err = callFailure(r, def, fallback);
  const errors = (r.body as { errors?: { path?: unknown; message?: unknown }[] } | null)?.errors;
  if (r.code === 400 && Array.isArray(errors)) {
    const seen = new Set<string>();
    for (const e of errors) {
      if (typeof e.path !== 'string' || typeof e.message !== 'string') continue;
      const [field = '', ...inner] = e.path.split('.');
      if (!field || seen.has(field)) continue;
      seen.add(field);
      err.fieldErrors[field] = inner.length ? `${inner.join('.')}: ${e.message}` : e.message;
    }
  }
  return err;
}

export async function addRule(body: AddRuleBody): Promise<Rule> {
  const r = await api.call(contracts.rules.add, body);
  if (!isOk(r)) throw saveFailure(r, contracts.rules.add, T.rules.addFailed);
  return r.body.data;
}

export async function editRule(body: EditRuleBody): Promise<Rule> {
  const r = await api.call(contracts.rules.edit, body);
  if (!isOk(r)) throw saveFailure(r, contracts.rules.edit, T.rules.editFailed);
  return r.body.data;
}

export async function activateRule(id: number, active: boolean): Promise<Rule> {
  return (await callOrThrow(contracts.rules.activate, { id, active }, T.ruleScreens.statusFailed)).data;
}

export async function removeRule(id: number): Promise<void> {
  await callOrThrow(contracts.rules.remove, { id }, T.rules.removeFailed);
}

export async function testRule(body: RuleTestBody): Promise<RuleTestResult> {
  return await callOrThrow(contracts.rules.test, body, T.ruleScreens.testFailed);
}
