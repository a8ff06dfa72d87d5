// A confirmed action as a user meets it: nothing happens on 'Batal'; on 'Ya' the screen is busy while the call runs,
// then the success notice and the screen's follow-up (reload), or the catalogue's message and no follow-up; nothing
// is said after a 401/402 (the session reactions answer it).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act as flush, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { T } from '@sentra/contracts';
import { ConfirmProvider } from '../ui/ConfirmDialog.js';
import { notices } from '../ui/snackbar/notices.js';
import { CallError } from './call.js';
import { useConfirmedAction, type ConfirmedAction } from './confirmed.js';

const shown = () => notices.snapshot().map((n) => `${n.level}: ${n.message}`);

/** A list screen with one "Hapus" button whose action the test sets; it shows whether it is busy. */
function Screen({ action, log }: { action: ConfirmedAction<string>; log: string[] }) {
  const { busy, act } = useConfirmedAction();
  const [answer, setAnswer] = useState('');
  return (
    <div>
      <button onClick={() => void act(action).then((ok) => setAnswer(String(ok)))}>Hapus</button>
      <span data-testid="busy">{busy ? 'busy' : 'idle'}</span>
      <span data-testid="answer">{answer}</span>
      <span data-testid="log">{log.join(',')}</span>
    </div>
  );
}

const show = (action: ConfirmedAction<string>, log: string[]) =>
  render(
    <ConfirmProvider>
      <Screen action={action} log={log} />
    </ConfirmProvider>,
  );

/** A call the test finishes by hand, so the busy state can be seen while it runs. */
function pending() {
  let resolve!: (v: string) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<string>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

beforeEach(() => {
  for (const n of notices.snapshot()) notices.dismiss(n.id);
});
afterEach(cleanup);

describe('useConfirmedAction', () => {
  it("asks first and does nothing on 'Batal'", async () => {
    const log: string[] = [];
    show({ ask: { message: 'Hapus pengguna budi?' }, run: async () => (log.push('run'), 'x'), failed: 'gagal' }, log);
    fireEvent.click(screen.getByText('Hapus'));
    expect(await screen.findByText('Hapus pengguna budi?')).toBeTruthy();
    fireEvent.click(screen.getByText(T.common.cancel));
    await waitFor(() => expect(screen.getByTestId('answer').textContent).toBe('false'));
    expect(log).toEqual([]);
    expect(shown()).toEqual([]);
  });

  it("on 'Ya' is busy while the call runs, then shows the success notice and reloads", async () => {
    const log: string[] = [];
    const call = pending();
    show(
      {
        ask: { message: 'Hapus?' },
        run: () => (log.push('run'), call.promise),
        success: (r) => `Terhapus ${r}`,
        failed: 'gagal',
        done: (r) => log.push(`reload after ${r}`),
        settled: () => log.push('settled'),
      },
      log,
    );
    fireEvent.click(screen.getByText('Hapus'));
    fireEvent.click(await screen.findByText(T.common.yes));
    await waitFor(() => expect(screen.getByTestId('busy').textContent).toBe('busy'));
    expect(log).toEqual(['run']);
    await flush(async () => call.resolve('budi'));
    await waitFor(() => expect(screen.getByTestId('answer').textContent).toBe('true'));
    expect(screen.getByTestId('busy').textContent).toBe('idle');
    expect(log).toEqual(['run', 'reload after budi', 'settled']);
    expect(shown()).toEqual(['success: Terhapus budi']);
  });

  it("shows a refused call's catalogue message, and the screen's text for any other failure; no follow-up", async () => {
    const log: string[] = [];
    const action = (error: unknown): ConfirmedAction<string> => ({
      ask: { message: 'Hapus?' },
      run: async () => Promise.reject(error),
      success: 'Terhapus',
      failed: 'Gagal menghapus',
      done: () => log.push('reload'),
      settled: () => log.push('settled'),
    });
    const { unmount } = show(action(new CallError(T.common.noConnection, {}, 0)), log);
    fireEvent.click(screen.getByText('Hapus'));
    fireEvent.click(await screen.findByText(T.common.yes));
    await waitFor(() => expect(screen.getByTestId('answer').textContent).toBe('false'));
    unmount();
    show(action(new Error('TypeError: x is undefined')), log);
    fireEvent.click(screen.getByText('Hapus'));
    fireEvent.click(await screen.findByText(T.common.yes));
    await waitFor(() => expect(screen.getByTestId('answer').textContent).toBe('false'));
    expect(screen.getByTestId('busy').textContent).toBe('idle');
    expect(shown()).toEqual([`error: ${T.common.noConnection}`, 'error: Gagal menghapus']);
    expect(log).toEqual(['settled', 'settled']);
  });

  it.each([401, 402])('says nothing after a %i: the session reactions answer it', async (status) => {
    show(
      {
        ask: { message: 'Hapus?' },
        run: async () => Promise.reject(new CallError('Sesi berakhir', {}, status)),
        failed: 'gagal',
      },
      [],
    );
    fireEvent.click(screen.getByText('Hapus'));
    fireEvent.click(await screen.findByText(T.common.yes));
    await waitFor(() => expect(screen.getByTestId('answer').textContent).toBe('false'));
    expect(shown()).toEqual([]);
  });
});
