// React side of the live hub: a component listens to a channel's event while mounted; updates arriving together are
// handed over once per animation frame, in arrival order (bounded, so a flood cannot grow memory).
import { useEffect, useRef } from 'react';
import { liveHub } from './socket.js';

const MAX_BUFFERED = 1000;

export function useLiveEvent<P>(
  channel: string,
  params: Record<string, unknown> | null,
  event: string,
  onBatch: (payloads: P[]) => void,
): void {
  const handler = useRef(onBatch);
  handler.current = onBatch;
  const paramsKey = params ? JSON.stringify(params) : null;
  useEffect(() => {
    if (paramsKey === null) return;
    const hub = liveHub();
    if (!hub) return;
    let buffer: P[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = buffer;
      buffer = [];
      if (batch.length) handler.current(batch);
    };
    const stop = hub.listen(channel, JSON.parse(paramsKey), event, (payload: P) => {
      buffer.push(payload);
      if (buffer.length > MAX_BUFFERED) buffer.splice(0, buffer.length - MAX_BUFFERED);
      if (!frame) frame = requestAnimationFrame(flush);
    });
    return () => {
      stop();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [channel, paramsKey, event]);
}
