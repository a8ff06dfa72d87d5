import { describe, expect, it } from 'vitest';
import { AckLedger, HeldAcks, type AckTarget } from './held-acks.js';

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

describe('no acknowledgement waits for a timer', () => {
  it('writes every release at once, as one write per connection, however many releases a second', () => {
    const a = target();
    const b = target();
    const held = new HeldAcks<typeof a>(() => {});
    // 5,000 releases back to back (far above any rate a thread sees): each is on the connection when release returns
    for (let k = 1; k <= 5000; k++) {
      const id = k & 0xffff;
      held.hold(a, id, false);
      held.hold(b, id, false);
      held.hold(a, id, true);
      held.release(3 * k);
      expect(a.writes).toHaveLength(k);
      expect([...a.writes[k - 1]!]).toEqual([0x40, 2, id >> 8, id & 0xff, 0x50, 2, id >> 8, id & 0xff]);
      expect(b.writes).toHaveLength(k);
    }
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
