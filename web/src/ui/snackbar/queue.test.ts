import { describe, expect, it } from 'vitest';
import { dismissNotice, dropTopic, MAX_VISIBLE, pushNotice, type Notice } from './queue.js';

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
  it('a result replaces its own pending notice, and leaves other notices alone', () => {
    let shown = pushNotice([], n(1, 'Sensor lain tersimpan', 'success'));
    shown = pushNotice(shown, { ...n(2, 'Konfigurasi sedang dikirim. Mohon tunggu'), topic: 'config:7:setpoint' });
    shown = pushNotice(shown, { ...n(3, 'Konfigurasi sukses', 'success'), topic: 'config:7:setpoint' });
    expect(shown.map((x) => x.message)).toEqual(['Sensor lain tersimpan', 'Konfigurasi sukses']);
  });
  it("a success replaces the earlier attempt's failure about the same action", () => {
    let shown = pushNotice([], {
      ...n(1, 'Domain sudah terpakai, silahkan gunakan domain lain', 'error'),
      topic: 'apps.add',
    });
    shown = pushNotice(shown, { ...n(2, 'Tambah Aplikasi Sukses', 'success'), topic: 'apps.add' });
    expect(shown).toEqual([{ id: 2, level: 'success', message: 'Tambah Aplikasi Sukses', topic: 'apps.add' }]);
  });
  it('the same message about the same topic is renewed, not replaced', () => {
    let shown = pushNotice([], { ...n(1, 'Gagal', 'error'), topic: 'x' });
    shown = pushNotice(shown, { ...n(2, 'Gagal', 'error'), topic: 'x' });
    expect(shown).toEqual([{ id: 1, level: 'error', message: 'Gagal', topic: 'x', renewals: 1 }]);
  });
  it('notices of another topic stay', () => {
    let shown = pushNotice([], { ...n(1, 'Mengunduh'), topic: 'download:a' });
    shown = pushNotice(shown, { ...n(2, 'Selesai', 'success'), topic: 'download:b' });
    expect(shown.map((x) => x.id)).toEqual([1, 2]);
  });
  it('a pending notice goes when its action ends without a notice of its own', () => {
    const shown = [{ ...n(1, 'Download sedang dilakukan'), topic: 'download:1' }, n(2)];
    expect(dropTopic(shown, 'download:1').map((x) => x.id)).toEqual([2]);
    expect(dropTopic(shown, 'other')).toBe(shown);
  });
});
