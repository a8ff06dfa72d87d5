import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { AUTO_HIDE_MS, SnackbarHost } from './SnackbarHost.js';
import { notices } from './notices.js';

afterEach(() => {
  for (const n of notices.snapshot()) notices.dismiss(n.id);
  cleanup();
});

describe('<SnackbarHost>', () => {
  it('draws at most 3 notices, without duplicates', () => {
    render(<SnackbarHost />);
    act(() => {
      notices.error('Login gagal');
      notices.error('Login gagal');
      notices.success('Satu');
      notices.warning('Dua');
      notices.info('Tiga');
    });
    const shown = screen.getAllByRole('alert').map((e) => e.textContent);
    expect(shown).toEqual(['Satu', 'Dua', 'Tiga']);
  });

  it('closes a notice after its time, and a repeat of its message while shown starts that time over', () => {
    vi.useFakeTimers();
    try {
      render(<SnackbarHost />);
      const shown = () => screen.queryAllByRole('alert').map((e) => e.textContent);
      act(() => notices.success('Sukses'));
      act(() => void vi.advanceTimersByTime(AUTO_HIDE_MS - 1000));
      // a second device added 4 s after the first: the same message, confirmed for a full period again
      act(() => notices.success('Sukses'));
      act(() => void vi.advanceTimersByTime(2000));
      expect(shown()).toEqual(['Sukses']);
      act(() => void vi.advanceTimersByTime(AUTO_HIDE_MS - 2000));
      expect(shown()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
