import { describe, expect, it } from 'vitest';
import { Backpressure } from './backpressure.js';

const until = async (ok: () => boolean, ms = 2000) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end;) await new Promise((r) => setTimeout(r, 5));
  return ok();
};

function broker() {
  const calls: boolean[] = [];
  return { calls, setReadPaused: (paused: boolean) => void calls.push(paused) };
}

describe('ingest backpressure', () => {
  it("pauses the broker's reads past half the queue bound and resumes them below an eighth", async () => {
    let backlog = 0;
    const b = broker();
    const bp = new Backpressure(
      () => backlog,
      800,
      () => false,
    );
    bp.attach(b);
    backlog = 400;
    bp.relieve();
    expect(b.calls).toEqual([]); // at the mark, not past it
    backlog = 401;
    bp.relieve();
    bp.relieve();
    expect(b.calls).toEqual([true]);
    expect(bp.paused).toBe(true);
    expect(bp.pauses).toBe(1);
    backlog = 150; // still above 100
    await new Promise((r) => setTimeout(r, 30));
    expect(b.calls).toEqual([true]);
    backlog = 100;
    expect(await until(() => !bp.paused)).toBe(true);
    expect(b.calls).toEqual([true, false]);
  });

  it('does nothing without a broker, and resumes reads when closing', () => {
    const bp = new Backpressure(
      () => 1000,
      800,
      () => false,
    );
    bp.relieve();
    expect(bp.paused).toBe(false);
    const b = broker();
    bp.attach(b);
    bp.relieve();
    expect(bp.paused).toBe(true);
    bp.close();
    expect(bp.paused).toBe(false);
    expect(b.calls).toEqual([true, false]);
  });
});
