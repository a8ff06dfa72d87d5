import { describe, expect, it } from 'vitest';
import type { TelemetryMessage } from '../message.js';
import { WriteQueue } from './write-queue.js';

let next = 0;
const message = (qos: 0 | 1, points: number): TelemetryMessage => ({
  appId: 1,
  deviceId: ++next,
  qos,
  receivedAt: 0,
  states: [],
  points: Array.from({ length: points }, (_, i) => ({ seriesId: 1, ts: i, num: i, text: null })),
});

describe("the writer's queue", () => {
  it('hands QoS 1 messages to a batch first, up to the batch size, and counts them until their batch settles', () => {
    const q = new WriteQueue({ maxQueuedPoints: 100, hardMaxQueuedPoints: 200 });
    const a = message(0, 3);
    const b = message(1, 3);
    const c = message(1, 3);
    for (const m of [a, b, c]) expect(q.offer(m)).toBe('queued');
    const first = q.take(5);
    expect(first.messages).toEqual([b, c]);
    expect(first.weight).toBe(6);
    expect(q.messages).toBe(1);
    expect(q.points).toBe(9);
    q.settled(first.weight);
    expect(q.points).toBe(3);
    expect(q.take(5).messages).toEqual([a]);
  });

  it('past the soft bound sheds the oldest QoS 0 messages and still takes QoS 1 up to the hard bound', () => {
    const q = new WriteQueue({ maxQueuedPoints: 10, hardMaxQueuedPoints: 14 });
    const old = message(0, 4);
    const newer = message(0, 4);
    q.offer(old);
    q.offer(newer);
    expect(q.offer(message(1, 4))).toBe('queued'); // sheds `old`
    expect(q.shedQos0Points).toBe(4);
    expect(q.offer(message(1, 4))).toBe('queued'); // sheds `newer`
    expect(q.shedQos0Points).toBe(8);
    expect(q.pressured).toBe(false);
    expect(q.offer(message(1, 4))).toBe('queued'); // nothing to shed: 12 <= 14
    expect(q.pressured).toBe(true);
    expect(q.offer(message(1, 4))).toBe('refused'); // 16 > 14, nothing left to shed
    expect(q.offer(message(0, 1))).toBe('refused'); // QoS 0 keeps to the soft bound
    expect(q.refusedPoints).toBe(5);
    expect(q.points).toBe(12);
    expect(q.maxPoints).toBe(12);
  });

  it('puts a failed batch back and ignores empty messages', () => {
    const q = new WriteQueue({ maxQueuedPoints: 10, hardMaxQueuedPoints: 10 });
    expect(q.offer(message(0, 0))).toBe('queued');
    expect(q.messages).toBe(0);
    q.offer(message(1, 2));
    const batch = q.take(10);
    expect(q.messages).toBe(0);
    q.requeue(batch.messages);
    expect(q.take(10).messages).toEqual(batch.messages);
    expect(q.points).toBe(2);
  });
});
