import { describe, expect, it, vi } from 'vitest';
import { eventually, until } from './until.js';

describe('polling in tests', () => {
  it('until answers true as soon as the check holds, false when the time is up', async () => {
    let n = 0;
    expect(await until(() => ++n === 3, 1000, 1)).toBe(true);
    expect(n).toBe(3);
    const start = Date.now();
    expect(await until(() => false, 60, 5)).toBe(false);
    expect(Date.now() - start).toBeGreaterThanOrEqual(55);
  });

  it('until says on stderr which wait was not met, naming the line that waited', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await until(() => false, 10, 5);
      expect(write).toHaveBeenCalledWith(expect.stringMatching(/^until: not within 10 ms .*until\.test\.ts:\d+/));
      write.mockClear();
      await until(() => true, 10, 5);
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });

  it('eventually passes once the check stops throwing, and throws its last failure when it never does', async () => {
    let n = 0;
    await eventually(() => expect(++n).toBeGreaterThan(2), 1000);
    await expect(eventually(() => expect('belum').toBe('sudah'), 50)).rejects.toThrow(/sudah/);
  });
});
