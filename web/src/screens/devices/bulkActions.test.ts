import { describe, expect, it } from 'vitest';
import { commandOfForm, runForEach } from './bulkActions.js';

describe('bulk actions on chosen devices', () => {
  it('acts on every device, a few at a time, keeping each outcome and its reason in order', async () => {
    let running = 0;
    let most = 0;
    const out = await runForEach(
      [1, 2, 3, 4, 5, 6],
      async (d) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (d % 3 === 0) throw new Error(`gagal ${d}`);
      },
      2,
    );
    expect(most).toBe(2);
    expect(out.map((o) => [o.device, o.ok, o.reason])).toEqual([
      [1, true, undefined],
      [2, true, undefined],
      [3, false, 'gagal 3'],
      [4, true, undefined],
      [5, true, undefined],
      [6, false, 'gagal 6'],
    ]);
  });
  it('does nothing for no devices', async () => {
    expect(await runForEach([], async () => undefined)).toEqual([]);
  });
  it('sends a value that reads as JSON as JSON, anything else as text', () => {
    const base = { sensor: 'relay', configtype: 'config', param: 'power' };
    expect(commandOfForm({ ...base, value: '1' })).toEqual({ ok: true, command: { ...base, value: 1 } });
    expect(commandOfForm({ ...base, value: 'true' })).toMatchObject({ command: { value: true } });
    expect(commandOfForm({ ...base, value: '{"a":2}' })).toMatchObject({ command: { value: { a: 2 } } });
    expect(commandOfForm({ ...base, value: ' ON ' })).toMatchObject({ command: { value: 'ON' } });
  });
  it('refuses an empty value or a missing sensor, configtype or param with "Input error"', () => {
    const r = commandOfForm({ sensor: ' ', configtype: 'config', param: '', value: '' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(Object.keys(r.errors).sort()).toEqual(['param', 'sensor', 'value']);
      expect(r.errors.value).toBe('Input error');
    }
    expect(commandOfForm({ sensor: 'a', configtype: 'b', param: 'c', value: 'null' }).ok).toBe(true); // the text "null"
  });
});
