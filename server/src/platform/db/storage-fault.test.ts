import { describe, expect, it } from 'vitest';
import { isStorageFault } from './storage-fault.js';

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
