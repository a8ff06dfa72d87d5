import { describe, expect, it } from 'vitest';
import type { Logger } from '../log.js';
import { BrokerMetrics, DROPPED_BY_KEY_LIMIT } from './broker-metrics.js';
import type { SessionStore } from './persistence/session-store.js';

function recordingLog() {
  const lines: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (message: string): void => {
      lines.push({ level, message });
    };
  const log = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger;
  return { log, lines };
}

describe('broker metrics', () => {
  it('counts publishes dropped outside their rights per identity, warning on the first and every thousandth', () => {
    const { log, lines } = recordingLog();
    const m = new BrokerMetrics(log, 4096);
    for (let i = 0; i < 1000; i++) m.dropped('device:1', 't/1');
    m.dropped('device:2', 't/2');
    const s = m.snapshot();
    expect(s.dropped_publishes).toBe(1001);
    expect(s.dropped_publishes_by_client).toEqual({ 'device:1': 1000, 'device:2': 1 });
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      'MQTT publish dropped (outside its rights): device:1 on t/1 (1 so far)',
      'MQTT publish dropped (outside its rights): device:1 on t/1 (1000 so far)',
      'MQTT publish dropped (outside its rights): device:2 on t/2 (1 so far)',
    ]);
  });

  it('keeps per-identity counts only for the identities that dropped most recently', () => {
    const { log } = recordingLog();
    const m = new BrokerMetrics(log, 4096);
    m.dropped('device:old', 't');
    for (let i = 0; i < DROPPED_BY_KEY_LIMIT - 1; i++) m.dropped(`device:${i}`, 't');
    m.dropped('device:old', 't'); // dropping again makes it recent
    m.dropped('device:new', 't');
    const byKey = m.snapshot().dropped_publishes_by_client;
    expect(Object.keys(byKey)).toHaveLength(DROPPED_BY_KEY_LIMIT);
    expect(byKey['device:old']).toBe(2);
    expect(byKey['device:0']).toBeUndefined();
    expect(byKey['device:new']).toBe(1);
  });

  it('counts connections closed for not reading and for oversized packets, naming the client when known', () => {
    const { log, lines } = recordingLog();
    const m = new BrokerMetrics(log, 4096);
    m.overflowed('sensor-1', 5000);
    m.overflowed(undefined, 6000);
    m.oversized(undefined, 300_000_000);
    const s = m.snapshot();
    expect(s.outbound_overflows).toBe(2);
    expect(s.oversized_packets).toBe(1);
    expect(lines[0]).toEqual({
      level: 'warn',
      message: 'MQTT client sensor-1 closed: 5000 bytes waiting to be sent (limit 4096); it stopped reading',
    });
    expect(lines[1]!.message).toMatch(/^MQTT connection closed: 6000 bytes/);
    expect(lines[2]!.level).toBe('debug');
    expect(lines[2]!.message).toMatch(/^MQTT connection closed: a packet of 300000000 bytes \(limit \d+\)$/);
  });

  it("adds the connect throttle's and the session store's figures when there are any", () => {
    const { log } = recordingLog();
    const m = new BrokerMetrics(log, 4096);
    expect(m.snapshot()).toEqual({
      oversized_packets: 0,
      outbound_overflows: 0,
      dropped_publishes: 0,
      dropped_publishes_by_client: {},
    });
    const throttle = { metrics: () => ({ throttled_connects: 3, failed_connects: 7 }) };
    const store = {
      counters: { queued_dropped: 1, retained_refused: 2, sessions_expired: 3, store_write_failures: 4 },
      size: { sessions: 5, queued: 6, retained: 7 },
      retainedUse: () => ({ count: 7, bytes: 800 }),
    };
    expect(m.snapshot(throttle as never, store as unknown as SessionStore)).toMatchObject({
      throttled_connects: 3,
      failed_connects: 7,
      queued_dropped: 1,
      retained_refused: 2,
      sessions_expired: 3,
      store_write_failures: 4,
      away_sessions: 5,
      queued_messages: 6,
      retained_messages: 7,
      retained_bytes: 800,
    });
  });
});
