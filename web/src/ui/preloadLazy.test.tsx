// A lazy component's chunk loaded ahead of its render, and a placeholder of the caller's own while it loads (no
// Suspense fallback, which would make React hold back reveals for 300 ms).
import { Suspense, lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { isLazySettled, preloadLazy, useLazyReady } from './preloadLazy.js';

afterEach(cleanup);

describe('preloadLazy', () => {
  it('resolves once the chunk is there, loading it once', async () => {
    const load = vi.fn(async () => ({ default: () => <span>siap</span> }));
    const View = lazy(load);
    expect(isLazySettled(View)).toBe(false);
    await Promise.all([preloadLazy(View), preloadLazy(View)]);
    expect(isLazySettled(View)).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('resolves for a failed chunk too (rendering reports it) and for a component that is not lazy', async () => {
    const View = lazy(async () => Promise.reject(new Error('chunk hilang')));
    await expect(preloadLazy(View)).resolves.toBeUndefined();
    expect(isLazySettled(View)).toBe(true);
    await expect(preloadLazy(() => null)).resolves.toBeUndefined();
    expect(isLazySettled(() => null)).toBe(true);
  });

  it('useLazyReady: the caller shows its own placeholder until the chunk is there, never the fallback', async () => {
    let arrive!: () => void;
    const View = lazy(
      () =>
        new Promise<{ default: () => React.JSX.Element }>(
          (r) => (arrive = () => r({ default: () => <span>nilai 42</span> })),
        ),
    );
    function Card() {
      const ready = useLazyReady(View);
      return ready ? <View /> : <span>memuat kartu</span>;
    }
    render(
      <Suspense fallback={<span>fallback</span>}>
        <Card />
      </Suspense>,
    );
    expect(screen.getByText('memuat kartu')).toBeTruthy();
    expect(screen.queryByText('fallback')).toBeNull();
    await act(async () => arrive());
    expect(screen.getByText('nilai 42')).toBeTruthy();
  });
});
