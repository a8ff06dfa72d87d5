import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import { checkManual, EMPTY_MANUAL, type ManualForm } from './ruleManualForm.js';

const good: ManualForm = {
  ...EMPTY_MANUAL,
  name: 'Meter offline',
  key: 'meter_offline',
  category: '22',
  condition: '{"triggers":[{"field":{"query":"VALUE"},"op":"==","value":0}]}',
  action: '{"new":[],"response":[]}',
  details: '{"catatan":"malam"}',
  description: 'Meter mati',
};

describe('manual rule form', () => {
  it('sends the JSON objects, the category as a number and a valid key; the texts come back pretty-printed', () => {
    const r = checkManual(good, false);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.body).toEqual({
      name: 'Meter offline',
      key: 'meter_offline',
      category: 22,
      description: 'Meter mati',
      condition: { triggers: [{ field: { query: 'VALUE' }, op: '==', value: 0 }] },
      action: { new: [], response: [] },
      details: { catatan: 'malam' },
    });
    expect(r.formatted.details).toBe('{\n  "catatan": "malam"\n}');
  });

  it('warns "Kondisi/Aksi/Details harus dalam bentuk JSON yang benar" for text that is not a JSON object', () => {
    const r = checkManual({ ...good, condition: '{triggers: []}', action: '[1,2]', details: '"x"' }, false);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual({
      condition: T.rules.conditionJson,
      action: T.rules.actionJson,
      details: T.rules.detailsJson,
    });
    expect(r.jsonWarnings).toEqual([T.rules.conditionJson, T.rules.actionJson, T.rules.detailsJson]);
  });

  it('requires name, category, condition, action and details', () => {
    const r = checkManual({ ...good, name: ' ', category: '', condition: '', action: ' ', details: '' }, false);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['action', 'category', 'condition', 'details', 'name']);
    expect(r.jsonWarnings).toEqual([]);
  });

  it('sends the key only when it matches the pattern, and never on edit', () => {
    for (const key of ['Meter Offline', 'meter-offline', '', 'x'.repeat(31)]) {
      const r = checkManual({ ...good, key }, false);
      expect(r.ok && 'key' in r.body).toBe(false);
    }
    const edit = checkManual(good, true);
    expect(edit.ok && 'key' in edit.body).toBe(false);
  });

  it('limits the name to 30 and the description to 128', () => {
    const r = checkManual({ ...good, name: 'n'.repeat(31), description: 'd'.repeat(129) }, false);
    expect(!r.ok && r.errors).toEqual({ name: T.ruleScreens.nameMax, description: T.ruleScreens.descriptionMax });
  });
});
