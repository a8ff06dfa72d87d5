// Writes of the event loop against another thread that commits back-to-back transactions (the telemetry writer's
// stand-in, yielding to the write gate before each one as writer.worker.ts does): they never hold the event loop, and
// with the gate shared a write that waited LOCK_GATE_AFTER_MS gets the lock after the transaction in flight, not after
// LOCK_WAIT_MS.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY, LOCK_GATE_AFTER_MS, lockTries, shareWriteGate } from './sqlite-lock.js';

const WRITER = `
  const { workerData, parentPort } = require('node:worker_threads');
  const db = new (require('better-sqlite3'))(workerData.file);
  db.pragma('busy_timeout = 5000');
  const insert = db.prepare("insert into probe (v) values ('batch')");
  const gate = workerData.gate;
  const stop = Date.now() + workerData.ms;
  parentPort.postMessage('started');
  while (Date.now() < stop) {
    for (let waited = 0; Atomics.load(gate, 0) > 0 && waited < 100; waited += 2) Atomics.wait(gate, 0, Atomics.load(gate, 0), 2);
    db.exec('begin immediate');
    insert.run();
    const until = Date.now() + workerData.batchMs;
    while (Date.now() < until);
    db.exec('commit');
  }
  db.close();`;

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function open() {
  dir = mkdtempSync(join(tmpdir(), 'sentra-lock-'));
  const file = join(dir, 'db.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec('create table probe (id integer primary key, v text)');
  return { db, file };
}

describe('lockTries', () => {
  it('answers BUSY at once while another connection holds the lock, and puts the busy timeout back', () => {
    const { db, file } = open();
    const other = new Database(file);
    try {
      other.exec('begin immediate');
      const lock = lockTries(db);
      const t0 = performance.now();
      expect(lock.unwaited(() => db.prepare("insert into probe (v) values ('x')").run())).toBe(BUSY);
      expect(performance.now() - t0).toBeLessThan(50);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      other.exec('commit');
      expect(lock.unwaited(() => db.prepare("insert into probe (v) values ('x')").run().changes)).toBe(1);
    } finally {
      other.close();
      db.close();
    }
  });

  it("gets the lock after the writer thread's batch in flight while the gate is shared, keeping the event loop free", async () => {
    const { db, file } = open();
    const gate = new Int32Array(new SharedArrayBuffer(4));
    shareWriteGate(db, gate);
    const lock = lockTries(db);
    const writer = new Worker(WRITER, { eval: true, workerData: { file, gate, ms: 1500, batchMs: 20 } });
    try {
      await once(writer, 'message');
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      const took: number[] = [];
      const gateWhileWaiting: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        // the gate as the writer sees it while this write waits: down at first, up once it waited LOCK_GATE_AFTER_MS
        const watch = setInterval(() => gateWhileWaiting.push(Atomics.load(gate, 0)), 2);
        await lock.unblocked(() => db.prepare("insert into probe (v) values ('event loop')").run());
        clearInterval(watch);
        took.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
      clearInterval(ticker);
      // a batch takes 20 ms: a write waits LOCK_GATE_AFTER_MS at most, then for the batch in flight; never LOCK_WAIT_MS
      expect(Math.max(...took)).toBeLessThan(LOCK_GATE_AFTER_MS + 80);
      expect(gateWhileWaiting).toContain(0);
      expect(gateWhileWaiting).toContain(1);
      expect(gateWhileWaiting.every((g) => g === 0 || g === 1)).toBe(true);
      expect(Atomics.load(gate, 0)).toBe(0);
      expect(ticks).toBeGreaterThan(20);
      expect(db.prepare("select count(*) from probe where v = 'event loop'").pluck().get()).toBe(20);
    } finally {
      await writer.terminate();
      db.close();
    }
  });
});
