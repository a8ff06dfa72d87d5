// Zone offsets: fixed zones, DST on both sides of a change, and the hour cache answering as Intl does.
import { describe, expect, it } from 'vitest';
import { zoneOffset } from './zone.js';

const H = 3_600_000;

describe('zoneOffset', () => {
  it('answers a fixed zone (Jakarta, UTC+7) and UTC', () => {
    expect(zoneOffset(Date.UTC(2024, 0, 1, 16, 58), 'Asia/Jakarta')).toBe(7 * H);
    expect(zoneOffset(Date.UTC(2024, 6, 1), 'UTC')).toBe(0);
  });

  it('follows a DST change to the hour (Berlin, 31 March 2024 01:00 UTC)', () => {
    const change = Date.UTC(2024, 2, 31, 1);
    expect(zoneOffset(change - 1, 'Europe/Berlin')).toBe(H);
    expect(zoneOffset(change, 'Europe/Berlin')).toBe(2 * H);
    // asked again (cached): the same answers
    expect(zoneOffset(change - 1, 'Europe/Berlin')).toBe(H);
    expect(zoneOffset(change + 59 * 60_000, 'Europe/Berlin')).toBe(2 * H);
  });

  it('keeps half-hour zones (Kolkata, UTC+5:30)', () => {
    expect(zoneOffset(Date.UTC(2024, 5, 1, 12, 45), 'Asia/Kolkata')).toBe(5.5 * H);
  });
});
