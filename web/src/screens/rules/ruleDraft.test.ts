import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import {
  draftAction,
  draftCondition,
  emptyDraft,
  emptyTask,
  EMPTY_EXTRAS,
  infoLimitError,
  jsonToDraft,
  validateInfo,
  validateTask,
  validateTrigger,
  wizardCanEdit,
} from './ruleDraft.js';

const info = { name: 'R', category: 11, description: '' };

describe('rule draft ⇄ rule JSON', () => {
  it('reads a stored rule back and writes the same condition and action', () => {
    const condition = {
      triggers: [
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'DEVICE_ID' }, op: '==', value: 4 },
        { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '>=', value: 230.5 },
      ],
      duration_s: 30,
      clear: [{ node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '<', value: 220 }],
      cooldown_s: 600,
    };
    const action = {
      name: 'Tegangan',
      title: 'Tegangan {{value}}',
      new: [{ type: 'WEBHOOK', url: 'https://contoh.id/hook' }],
      response: [{ type: 'WHATSAPP', phone: '+628123456789', content: 'Ditangani' }],
    };
    const d = jsonToDraft(info, { condition, action });
    expect(draftCondition(d)).toEqual(condition);
    expect(draftAction(d)).toEqual(action);
  });

  it('reads anything a hand-written rule may hold without throwing', () => {
    for (const junk of [null, 3, 'x', [], { triggers: 'no' }, { triggers: [null, { field: 5, op: '!=' }] }]) {
      const d = jsonToDraft(info, { condition: junk, action: junk });
      expect(Array.isArray(d.trigger)).toBe(true);
      expect(d.action.new).toEqual([]);
    }
    expect(jsonToDraft(info, { condition: { triggers: [{ field: 5, op: '!=' }] }, action: {} }).trigger).toEqual([
      { field: 'VALUE', op: '==', value: '' },
    ]);
  });

  it('tells when the wizard cannot show a stored condition without loss', () => {
    expect(wizardCanEdit({ triggers: [] })).toBe(true);
    expect(wizardCanEdit({ triggers: [], clear: [{ field: { query: 'VALUE' }, op: '<', value: 1 }] })).toBe(true);
    expect(wizardCanEdit({ groups: [[]] })).toBe(false);
    expect(wizardCanEdit({ clear: [{ field: { query: 'SENSOR' } }] })).toBe(false);
    expect(wizardCanEdit({ clear: [{ field: { query: 'VALUE' } }, { field: { query: 'VALUE' } }] })).toBe(false);
  });

  it('leaves the extras out of the condition until they are set', () => {
    expect(draftCondition(emptyDraft())).toEqual({ triggers: expect.any(Array) });
  });
});

describe('a notification task', () => {
  it('needs its type’s fields, checked by the engine’s rules', () => {
    expect(validateTask({ ...emptyTask('SMS'), phone: '+6281234567890', content: 'x' })).toEqual({});
    expect(validateTask({ ...emptyTask('EMAIL'), email: 'bukan-email', subject: 's', content: 'c' })).toEqual({
      email: T.common.invalidEmail,
    });
    expect(
      validateTask({ ...emptyTask('EMAIL'), email: 'a@b.id', subject: 's', content: 'Nilai {{tidak.ada}}' }).content,
    ).toBe(T.rules.templateUnknown('tidak.ada'));
    expect(validateTask({ ...emptyTask('WEBHOOK'), url: 'ftp://x' })).toEqual({ url: T.notifications.invalidUrl });
    expect(validateTask(emptyTask('WEBHOOK'))).toEqual({ url: T.common.required });
  });

  it('takes an EMAIL, SMS or WhatsApp without a subject or content: the message is then the default one', () => {
    expect(validateTask({ ...emptyTask('EMAIL'), email: 'a@b.id' })).toEqual({});
    expect(validateTask({ ...emptyTask('SMS'), phone: '+6281234567890' })).toEqual({});
    expect(validateTask(emptyTask('EMAIL'))).toEqual({ email: T.common.required });
  });
});

describe('limits said with field messages (issue 38)', () => {
  it('refuses a 35-character name while it is typed and on submit', () => {
    const name = 'Suhu ruang server terlalu tinggi!!'.padEnd(35, '!');
    expect(infoLimitError('name', name)).toBe(T.ruleScreens.nameMax);
    expect(infoLimitError('name', name.slice(0, 30))).toBeUndefined();
    expect(validateInfo({ ...info, name }).name).toBe(T.ruleScreens.nameMax);
  });

  it('refuses a threshold of more than 15 digits, a number a double cannot hold exactly', () => {
    const rows = emptyDraft().trigger.map((r) => ({
      ...r,
      value: r.field === 'VALUE' ? '12345678901234567890123' : '1',
    }));
    expect(validateTrigger(rows, EMPTY_EXTRAS)['row.4']).toBe(T.rules.valueTooLong(15));
    const fifteen = rows.map((r) => (r.field === 'VALUE' ? { ...r, value: '-999999999999.999' } : r));
    expect(validateTrigger(fifteen, EMPTY_EXTRAS)['row.4']).toBeUndefined();
    expect(
      validateTrigger(fifteen, { ...EMPTY_EXTRAS, clearValue: '0.00000000000000000001' }).clearValue,
    ).toBeUndefined();
    expect(validateTrigger(fifteen, { ...EMPTY_EXTRAS, clearValue: '1234567890123456' }).clearValue).toBe(
      T.rules.valueTooLong(15),
    );
  });
});
