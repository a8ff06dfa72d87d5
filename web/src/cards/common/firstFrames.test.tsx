// Charts wait for the cards still waiting for their first frame: released by the last frame, or by the time limit.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { firstFramesDrawn, useAwaitingFirstFrame } from './firstFrames.js';

afterEach(cleanup);

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await act(async () => new Promise((r) => setTimeout(r, 5)));
  return done;
};

describe('first frames', () => {
  it('release at once when no card waits', async () => {
    expect(await settled(firstFramesDrawn())).toBe(true);
  });

  it('release when the last waiting card has its first frame', async () => {
    const a = renderHook(({ waiting }) => useAwaitingFirstFrame(waiting), { initialProps: { waiting: true } });
    const b = renderHook(({ waiting }) => useAwaitingFirstFrame(waiting), { initialProps: { waiting: true } });
    const drawn = firstFramesDrawn();
    expect(await settled(drawn)).toBe(false);
    a.rerender({ waiting: false });
    expect(await settled(drawn)).toBe(false);
    b.rerender({ waiting: false });
    expect(await settled(drawn)).toBe(true);
  });

  it('release a card that leaves without a frame', async () => {
    const a = renderHook(() => useAwaitingFirstFrame(true));
    const drawn = firstFramesDrawn();
    a.unmount();
    expect(await settled(drawn)).toBe(true);
  });

  it('stop waiting for a card that never gets a frame after the time limit', async () => {
    renderHook(() => useAwaitingFirstFrame(true));
    const drawn = firstFramesDrawn(20);
    expect(await settled(drawn)).toBe(false);
    await act(async () => new Promise((r) => setTimeout(r, 30)));
    expect(await settled(drawn)).toBe(true);
  });
});
