// A card's lazy view preloaded while the card waits for data renders with its first frame, without a fallback.
import { Suspense, lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { preloadView } from './preloadView.js';

afterEach(cleanup);

describe('preloadView', () => {
  it('loads the chunk once, so the view renders at once instead of showing the fallback', async () => {
    const load = vi.fn(async () => ({ default: () => <span>nilai 42</span> }));
    const View = lazy(load);
    preloadView(View);
    preloadView(View);
    await act(async () => undefined); // the chunk arrives
    render(
      <Suspense fallback={<span>memuat</span>}>
        <View />
      </Suspense>,
    );
    expect(screen.getByText('nilai 42')).toBeTruthy();
    expect(screen.queryByText('memuat')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('leaves a failed chunk to the render, which reports it', async () => {
    const View = lazy(async () => Promise.reject(new Error('chunk hilang')));
    expect(() => preloadView(View)).not.toThrow();
    await act(async () => undefined);
  });

  it('does nothing to a component that is not lazy', () => {
    expect(() => preloadView((() => null) as never)).not.toThrow();
  });
});
