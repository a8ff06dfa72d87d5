// The cards of the open dashboard still waiting for their first frame. Charts wait for them (chart/chartDraws.ts):
// Plotly's start-up and draws cost far more than a value, so the values go on screen first. A card that never gets a
// frame (a refused channel, a dead device) holds the charts back at most MAX_HOLD_MS.
import { useEffect } from 'react';

export const MAX_HOLD_MS = 2000;

let waiting = 0;
const released = new Set<() => void>();

function settle(): void {
  if (waiting > 0) return;
  const fns = [...released];
  released.clear();
  fns.forEach((fn) => fn());
}

/** Counts the calling card as waiting while `waitingForFrame` is true (from mount or until its first frame). */
export function useAwaitingFirstFrame(waitingForFrame: boolean): void {
  useEffect(() => {
    if (!waitingForFrame) return;
    waiting++;
    return () => {
      waiting--;
      settle();
    };
  }, [waitingForFrame]);
}

/** Resolves once no card waits for its first frame any more, or after `maxMs` at the latest. */
export function firstFramesDrawn(maxMs = MAX_HOLD_MS): Promise<void> {
  if (waiting === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      released.delete(done);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    released.add(done);
  });
}
