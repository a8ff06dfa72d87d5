import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { SnackbarHost } from './SnackbarHost.js';
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
});
