import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACK_COALESCE_MS, AckLedger, HeldAcks, type AckTarget } from './held-acks.js';

function target() {
  const writes: Buffer[] = [];
  const t: AckTarget & { writes: Buffer[]; closedBy: number } = {
    writes,
    closedBy: 0,
    connected: true,
    closed: false,
    conn: { write: (b: Buffer) => (writes.push(b), true) },
    close() {
      this.closedBy++;
      this.closed = true;
    },
  };
  return t;
}

describe('held acknowledgements (broker thread)', () => {
  it('writes a connection its released PUBACKs and PUBRECs in order, in one write per release', () => {
    const a = target();
    const b = target();
    const held = new HeldAcks<typeof a>(() => {});
    held.hold(a, 1, false);
    held.hold(b, 7, false);
    held.hold(a, 2, true);
    held.hold(a, 3, false);
    held.release(2);
    expect(a.writes.map((w) => [...w])).toEqual([[0x40, 2, 0, 1]]);
    expect(b.writes.map((w) => [...w])).toEqual([[0x40, 2, 0, 7]]);
    held.release(4);
    expect(a.writes.slice(1).map((w) => [...w])).toEqual([[0x50, 2, 0, 2, 0x40, 2, 0, 3]]);
  });

  it("tells whether a connection's QoS 2 PUBREC is still held (a re-sent PUBLISH waits for it, else gets one at once)", () => {
    const a = target();
    const b = target();
    const held = new HeldAcks<typeof a>(() => {});
    held.hold(a, 5, true);
    held.hold(a, 6, false);
    expect(held.holdsRec(a, 5)).toBe(true);
    expect(held.holdsRec(a, 6)).toBe(false); // a PUBACK, not a PUBREC
    expect(held.holdsRec(b, 5)).toBe(false);
    held.release(1);
    expect(held.holdsRec(a, 5)).toBe(false);
  });

  it('closes a connection whose message was refused instead of acknowledging it, and skips a closed one', () => {
    const a = target();
    const b = target();
    const held = new HeldAcks<typeof a>(() => {});
    held.hold(a, 1, false);
    held.hold(a, 2, false);
    held.hold(b, 3, false);
    b.closed = true;
    held.release(3, [1]);
    expect(a.writes).toEqual([]);
    expect(a.closedBy).toBe(1);
    expect(b.writes).toEqual([]);
  });

  it('stops reading a connection with too many held, and reads it again below half', () => {
    const a = target();
    const calls: boolean[] = [];
    const held = new HeldAcks<typeof a>((_c, paused) => calls.push(paused), 4);
    for (let i = 1; i <= 4; i++) held.hold(a, i, false);
    expect(calls).toEqual([true]);
    held.release(2);
    expect(calls).toEqual([true]);
    held.release(3);
    expect(calls).toEqual([true, false]);
  });
});

describe('PUBACKs under load share a write', () => {
  afterEach(() => void vi.useRealTimers());
  const puback = (id: number) => [0x40, 2, 0, id];

  /** a thread's acknowledgements with a clock of its own; `load` releases `perS` acknowledgements over one second */
  function loaded() {
    vi.useFakeTimers();
    let t = 0;
    const filler = target();
    const held = new HeldAcks<ReturnType<typeof target>>(() => {}, 100, undefined, {
      ms: ACK_COALESCE_MS,
      abovePerS: 1000,
      now: () => t,
    });
    let serial = 0;
    const clock = {
      held,
      filler,
      hold: (c: ReturnType<typeof target>, id: number, rec = false) => (held.hold(c, id, rec), ++serial),
      release: () => held.release(serial),
      advance(ms: number) {
        t += ms;
        vi.advanceTimersByTime(ms);
      },
      /** `n` acknowledgements of `filler` released a second, for 1.2 s (a whole window measured) */
      load(n: number) {
        for (let k = 0; k < 12; k++) {
          for (let j = 0; j < n / 10; j++) clock.hold(filler, 1);
          clock.advance(100);
          clock.release();
        }
        vi.advanceTimersByTime(ACK_COALESCE_MS);
        filler.writes.length = 0;
      },
    };
    return clock;
  }

  it("writes at once below the load, and coalesces a connection's PUBACKs for ACK_COALESCE_MS above it", () => {
    const c = loaded();
    const a = target();
    c.hold(a, 1);
    c.release();
    expect(a.writes.map((w) => [...w])).toEqual([puback(1)]); // no load yet: at once
    c.load(2000);
    expect(c.held.coalesces).toBe(true);
    c.hold(a, 2);
    c.release();
    c.advance(50);
    c.hold(a, 3);
    c.release();
    expect(a.writes).toHaveLength(1); // both wait
    c.advance(ACK_COALESCE_MS - 50);
    expect(a.writes.slice(1).map((w) => [...w])).toEqual([[...puback(2), ...puback(3)]]); // in order, one write
  });

  it('writes a PUBREC at once, after the PUBACKs waiting before it', () => {
    const c = loaded();
    const a = target();
    c.load(2000);
    c.hold(a, 4);
    c.release();
    c.hold(a, 5, true);
    c.release();
    expect(a.writes.map((w) => [...w])).toEqual([[...puback(4), 0x50, 2, 0, 5]]);
  });

  it('writes what waits when the thread closes, and nothing for a connection that went or was refused', () => {
    const c = loaded();
    const [a, b, d] = [target(), target(), target()];
    c.load(2000);
    c.hold(a, 6);
    c.hold(b, 7);
    c.release();
    c.held.forget(b);
    c.held.flushAll();
    expect(a.writes.map((w) => [...w])).toEqual([puback(6)]);
    expect(b.writes).toEqual([]);
    c.hold(d, 8);
    c.release();
    const nine = c.hold(d, 9);
    c.held.release(nine, [nine - 1]); // 9 refused: d is closed unacknowledged, 8 with it
    c.advance(ACK_COALESCE_MS);
    expect(d.writes).toEqual([]);
    expect(d.closedBy).toBe(1);
  });

  it('writes at once again once the load falls below half', () => {
    const c = loaded();
    const a = target();
    c.load(2000);
    c.load(200);
    expect(c.held.coalesces).toBe(false);
    c.hold(a, 10);
    c.release();
    expect(a.writes.map((w) => [...w])).toEqual([puback(10)]);
  });

  it('writes at once again after a second with nothing released, whatever the window before counted', () => {
    const c = loaded();
    const a = target();
    c.load(2000);
    c.hold(a, 11);
    c.release();
    expect(a.writes).toEqual([]); // waits
    c.advance(1000);
    c.hold(a, 12);
    c.release();
    expect(a.writes.map((w) => [...w])).toEqual([puback(11), puback(12)]);
  });
});

describe('the acknowledgement ledger (event loop)', () => {
  it('releases in order: a message still held keeps back the ones after it', () => {
    let told = 0;
    const ledger = new AckLedger(() => told++);
    const e0 = ledger.open();
    const r0 = ledger.hold(e0);
    ledger.letGo(e0);
    const e1 = ledger.open();
    ledger.letGo(e1); // nobody held it: ready, but behind e0
    expect(ledger.take()).toBeNull();
    r0();
    r0(); // a second call changes nothing
    expect(ledger.take()).toEqual({ upTo: 2 });
    expect(ledger.take()).toBeNull();
    expect(told).toBeGreaterThan(0);
  });

  it('tells which released messages were refused', () => {
    const ledger = new AckLedger();
    const e0 = ledger.open();
    const r0 = ledger.hold(e0);
    ledger.letGo(e0);
    r0(false);
    const e1 = ledger.open();
    ledger.letGo(e1);
    expect(ledger.take()).toEqual({ upTo: 2, refused: [0] });
  });
});
