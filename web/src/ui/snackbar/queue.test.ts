import { describe, expect, it } from 'vitest';
import { dismissNotice, MAX_VISIBLE, pushNotice, type Notice } from './queue.js';

const n = (id: number, message = `pesan ${id}`, level: Notice['level'] = 'info'): Notice => ({ id, level, message });

describe('notification queue', () => {
  it('shows at most 3 notices at once, the oldest giving way', () => {
    let shown: Notice[] = [];
    for (let i = 1; i <= 5; i++) shown = pushNotice(shown, n(i));
    expect(MAX_VISIBLE).toBe(3);
    expect(shown.map((x) => x.id)).toEqual([3, 4, 5]);
  });
  it('prevents duplicates of a message already shown', () => {
    let shown = pushNotice([], n(1, 'Login gagal', 'error'));
    shown = pushNotice(shown, n(2, 'Login gagal', 'error'));
    shown = pushNotice(shown, n(3, 'Login gagal', 'warning'));
    expect(shown).toHaveLength(1);
    // the one shown is renewed instead (its time on screen starts again), keeping its place and id
    expect(shown[0]).toMatchObject({ id: 1, level: 'error', renewals: 2 });
  });
  it('shows the message again once the first one is gone', () => {
    let shown = pushNotice([], n(1, 'Login gagal'));
    shown = dismissNotice(shown, 1);
    shown = pushNotice(shown, n(2, 'Login gagal'));
    expect(shown.map((x) => x.id)).toEqual([2]);
  });
  it('keeps the levels info, success, warning and error', () => {
    const levels: Notice['level'][] = ['info', 'success', 'warning', 'error'];
    const shown = levels.reduce<Notice[]>((s, level, i) => pushNotice(s, n(i, level, level), 4), []);
    expect(shown.map((x) => x.level)).toEqual(levels);
  });
});
