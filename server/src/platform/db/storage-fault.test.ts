import { describe, expect, it } from 'vitest';
import { isStorageFault, waitOutStorageFaults } from './storage-fault.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isStorageFault', () => {
  it("counts SQLite's and the file system's storage errors, not the code's", () => {
    expect(isStorageFault(coded('SQLITE_FULL'))).toBe(true);
    expect(isStorageFault(coded('SQLITE_BUSY_SNAPSHOT'))).toBe(true);
    expect(isStorageFault(coded('ENOSPC'))).toBe(true);
    expect(isStorageFault(new Error('telemetry writer thread exited (1)'))).toBe(true);
    expect(isStorageFault(coded('SQLITE_CONSTRAINT_NOTNULL'))).toBe(false);
    expect(isStorageFault(new TypeError('x is undefined'))).toBe(false);
  });

  it("counts PostgreSQL unreachable, shutting down, out of disk or read-only; not a query's own error", () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53100', '53300', '58030', '25006'])
      expect(isStorageFault(coded(code)), code).toBe(true);
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'])
      expect(isStorageFault(coded(code)), code).toBe(true);
    expect(isStorageFault(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isStorageFault(new Error('timeout exceeded when trying to connect'))).toBe(true);
    // syntax, unique violation, bad input, deadlock: the code's or the data's
    for (const code of ['42601', '23505', '22P02', '40P01', '57014'])
      expect(isStorageFault(coded(code)), code).toBe(false);
  });

  it("sees the driver's fault through the store's wrapped error (drizzle's cause)", () => {
    const wrapped = (cause: Error) => Object.assign(new Error('Failed query: insert into "sessions" …'), { cause });
    expect(isStorageFault(wrapped(coded('SQLITE_FULL')))).toBe(true);
    expect(isStorageFault(wrapped(coded('57P01')))).toBe(true);
    expect(isStorageFault(wrapped(coded('SQLITE_CONSTRAINT_UNIQUE')))).toBe(false);
  });
});

describe('waitOutStorageFaults', () => {
  it('tries again while the storage is at fault, tells the wait once, and answers what the read answers', async () => {
    let calls = 0;
    const waits: unknown[] = [];
    const answer = await waitOutStorageFaults(
      async () => {
        if (++calls <= 3) throw coded('57P03', 'the database system is starting up');
        return 'states';
      },
      { retryMs: 1, stopping: () => false, waiting: (err) => waits.push(err) },
    );
    expect(answer).toBe('states');
    expect(calls).toBe(4);
    expect(waits).toHaveLength(1);
  });

  it("throws the code's own error at once, and a fault once stopping", async () => {
    let calls = 0;
    const bug = new TypeError('x is undefined');
    await expect(
      waitOutStorageFaults(
        async () => {
          calls++;
          throw bug;
        },
        { retryMs: 1, stopping: () => false },
      ),
    ).rejects.toBe(bug);
    expect(calls).toBe(1);
    let stopping = false;
    const fault = coded('57P01');
    await expect(
      waitOutStorageFaults(
        async () => {
          if (calls++ > 3) stopping = true;
          throw fault;
        },
        { retryMs: 1, stopping: () => stopping },
      ),
    ).rejects.toBe(fault);
  });
});
