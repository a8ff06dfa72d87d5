import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FleetSnapshot } from './fleet/run.js';
import { newStats } from './fleet/stats.js';
import { progressLogLine, startProgress } from './progress.js';

function snapshot(over: Partial<FleetSnapshot> = {}): FleetSnapshot {
  return { ...newStats(500), phase: 'running', msgsPerSec: 0, uptimeSec: 0, ...over };
}

describe('progress when stderr is not a terminal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-27T10:00:00.000Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('writes one line every 10 s with the devices connected and the messages sent per second over those 10 s', () => {
    const s = snapshot({ registered: 500, connected: 480 });
    const lines: string[] = [];
    const progress = startProgress({ stats: () => s, write: (t) => lines.push(t), tty: false });
    vi.advanceTimersByTime(9_999);
    expect(lines).toEqual([]);
    s.messages = 4_800;
    vi.advanceTimersByTime(1);
    s.messages = 5_300;
    vi.advanceTimersByTime(10_000);
    progress.stop();
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual([
      '2026-11-27T10:00:10.000Z sentra sim running: 480 devices connected (500/500 registered), 480.0 msg/s sent, 4800 messages, 0 errors\n',
      '2026-11-27T10:00:20.000Z sentra sim running: 480 devices connected (500/500 registered), 50.0 msg/s sent, 5300 messages, 0 errors\n',
    ]);
  });

  it('writes a line on demand (once the fleet runs, at the end) measured from the previous line', () => {
    const s = snapshot({ connected: 3 });
    const lines: string[] = [];
    const progress = startProgress({ stats: () => s, write: (t) => lines.push(t), tty: false, logEverySeconds: 10 });
    vi.advanceTimersByTime(2_000);
    s.messages = 10;
    progress.report();
    progress.stop();
    expect(lines).toEqual([
      '2026-11-27T10:00:02.000Z sentra sim running: 3 devices connected (0/500 registered), 5.0 msg/s sent, 10 messages, 0 errors\n',
    ]);
  });

  it('writes nothing on its own with --progress 0', () => {
    const lines: string[] = [];
    const progress = startProgress({
      stats: () => snapshot(),
      write: (t) => lines.push(t),
      tty: false,
      logEverySeconds: 0,
    });
    vi.advanceTimersByTime(120_000);
    progress.stop();
    expect(lines).toEqual([]);
  });
});

describe('progress on a terminal', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('rewrites one line in place twice a second, writes no log lines, and ends the line when stopped', () => {
    const writes: string[] = [];
    const progress = startProgress({
      stats: () => snapshot({ connected: 7, msgsPerSec: 3.25, messages: 40 }),
      write: (t) => writes.push(t),
      tty: true,
    });
    vi.advanceTimersByTime(1_000);
    progress.report();
    progress.stop();
    expect(writes).toHaveLength(3);
    expect(writes[0]).toBe(
      '\rsentra sim  running     registered 0/500  connected 7  3.3 msg/s  sent 40  errors 0\x1b[K',
    );
    expect(writes[1]).toBe(writes[0]);
    expect(writes[2]).toBe('\n');
  });
});

describe('progressLogLine', () => {
  it('answers 0 msg/s for an empty interval instead of dividing by zero', () => {
    expect(progressLogLine(snapshot(), new Date(0), 5, 0)).toContain(' 0.0 msg/s sent');
  });
});
