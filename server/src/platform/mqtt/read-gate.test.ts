import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { pauseReading, ReadGate, resumeReading } from './read-gate.js';

/** a client shaped like aedes 0.51's read loop: on `readable` and after each packet it reads what is buffered */
function fakeClient(name: string, reads: string[], afterRead: () => void = () => {}) {
  const conn = new EventEmitter();
  let buffered = 0;
  const client = {
    conn,
    closed: false,
    _paused: false,
    _parsingBatch: 1,
    _nextBatch: undefined as ((err?: Error) => void) | undefined,
    /** data arrives on the socket */
    arrive(n = 1) {
      buffered += n;
      conn.emit('readable');
    },
  };
  const nextBatch = () => {
    if (client._paused) return;
    client._parsingBatch--;
    if (client._parsingBatch <= 0) {
      client._parsingBatch = 0;
      if (buffered > 0) {
        buffered = 0;
        reads.push(name);
        afterRead();
      }
    }
  };
  client._nextBatch = nextBatch;
  conn.on('readable', nextBatch);
  return client;
}

describe("a broker thread's read gate", () => {
  it('reads every connection while open; while closed they wait in line and read in that order when it opens', () => {
    let open = true;
    const reads: string[] = [];
    const gate = new ReadGate(() => open);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => fakeClient(n, reads));
    for (const x of [a, b, c]) gate.guard(x!);
    a!.arrive();
    expect(reads).toEqual(['a']);
    open = false;
    c!.arrive();
    a!.arrive();
    b!.arrive();
    expect(reads).toEqual(['a']);
    expect(gate.size).toBe(3);
    open = true;
    gate.readWaiting();
    expect(reads).toEqual(['a', 'c', 'a', 'b']);
    expect(gate.size).toBe(0);
  });

  it('stops reading the line the moment a read closes the gate again, and the rest keep their place', () => {
    let open = false;
    const reads: string[] = [];
    const gate = new ReadGate(() => open);
    // a read that hands messages over may reach the thread's bound: here the second read closes the gate
    const clients = ['a', 'b', 'c', 'd'].map((n) =>
      fakeClient(n, reads, () => {
        if (reads.length === 2) open = false;
      }),
    );
    for (const x of clients) gate.guard(x);
    for (const x of clients) x.arrive();
    open = true;
    gate.readWaiting();
    expect(reads).toEqual(['a', 'b']);
    expect(gate.size).toBe(2);
    open = true;
    gate.readWaiting();
    expect(reads).toEqual(['a', 'b', 'c', 'd']);
  });

  it("a connection's own pause holds it whatever the gate says, and its resumption goes through the gate", () => {
    let open = true;
    const reads: string[] = [];
    const gate = new ReadGate(() => open);
    const a = fakeClient('a', reads);
    gate.guard(a);
    pauseReading(a);
    a.arrive();
    expect(reads).toEqual([]);
    open = false;
    resumeReading(a);
    expect(reads).toEqual([]);
    expect(gate.size).toBe(1);
    open = true;
    gate.readWaiting();
    expect(reads).toEqual(['a']);
  });

  it('forgets a connection that went, and skips one closed while it waited', () => {
    let open = false;
    const reads: string[] = [];
    const gate = new ReadGate(() => open);
    const [a, b] = ['a', 'b'].map((n) => fakeClient(n, reads));
    gate.guard(a!);
    gate.guard(b!);
    a!.arrive();
    b!.arrive();
    gate.forget(a!);
    b!.closed = true;
    open = true;
    gate.readWaiting();
    expect(reads).toEqual([]);
    expect(gate.size).toBe(0);
  });

  it('ends the batch of a packet handled while closed for a connection read elsewhere (the native reader), never queues it', () => {
    let open = false;
    const reads: string[] = [];
    const native = new Set<object>();
    const gate = new ReadGate(
      () => open,
      undefined,
      (c) => native.has(c),
    );
    const [a, b] = ['a', 'b'].map((n) => fakeClient(n, reads));
    native.add(a!);
    gate.guard(a!);
    gate.guard(b!);
    // a packet of each handled while the gate is closed: its handler ends the batch
    a!._parsingBatch = 1;
    a!._nextBatch!();
    b!._parsingBatch = 1;
    b!._nextBatch!();
    expect(a!._parsingBatch).toBe(0);
    expect(b!._parsingBatch).toBe(1);
    expect(gate.size).toBe(1);
  });
});
