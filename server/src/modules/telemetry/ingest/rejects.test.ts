import { describe, expect, it } from 'vitest';
import { IngestRejects } from './rejects.js';

describe('ingest rejects', () => {
  it('counts messages, points and state reports apart, by reason and per device with its last reason and time', () => {
    let clock = 100;
    const r = new IngestRejects(() => clock);
    expect(r.count('unknown_device', undefined)).toBe('unknown_device');
    r.count('bad_value', 7, 2);
    clock = 200;
    r.count('state_limit', 7, 0, 3);
    expect(r.metrics()).toMatchObject({
      rejected_messages: 1,
      rejected_points: 2,
      rejected_states: 3,
      rejected: { unknown_device: 1, bad_value: 1, state_limit: 1 },
    });
    expect(r.of(7)).toEqual({ count: 2, last_reason: 'state_limit', last_ts: 200 });
    expect(r.of(8)).toBeUndefined();
  });

  it('forgets the device counted longest ago once it tracks as many as it may', () => {
    const r = new IngestRejects(() => 0, 2);
    r.count('disabled', 1);
    r.count('disabled', 2);
    r.count('disabled', 3);
    expect(r.of(1)).toBeUndefined();
    expect(r.of(2)?.count).toBe(1);
    expect(r.of(3)?.count).toBe(1);
  });
});
