import { describe, expect, it } from 'vitest';
import type { StateChange } from '../../states/states.store.js';
import type { TelemetryMessage } from '../message.js';
import { toBatch, toColumns } from './batch.js';

const state = (key: string): StateChange => ({ key, value: 'on', ts: 1 });
const message = (
  deviceId: number,
  points: TelemetryMessage['points'],
  states: StateChange[] = [],
): TelemetryMessage => ({
  appId: 7,
  deviceId,
  qos: 0,
  receivedAt: 0,
  points,
  states,
});

describe('a batch for the store', () => {
  it('lays points out as columns: numbers where they hold, texts by their point index', () => {
    const c = toColumns([
      { seriesId: 3, ts: 10, num: 1.5, text: null },
      { seriesId: 4, ts: 11, num: null, text: 'pintu terbuka' },
      { seriesId: 3, ts: 12, num: 0, text: null },
    ]);
    expect([...c.series]).toEqual([3, 4, 3]);
    expect([...c.ts]).toEqual([10, 11, 12]);
    expect([...c.hasNum]).toEqual([1, 0, 1]);
    expect([...c.num]).toEqual([1.5, 0, 0]);
    expect([...c.textAt]).toEqual([1]);
    expect(c.texts).toEqual(['pintu terbuka']);
  });

  it("keeps the messages' points in order and names each message's states by its index", () => {
    const { batch, points } = toBatch(
      9,
      [
        message(1, [{ seriesId: 1, ts: 1, num: 1, text: null }]),
        message(2, [], [state('relay')]),
        message(3, [{ seriesId: 2, ts: 2, num: 2, text: null }], [state('mode')]),
      ],
      null,
    );
    expect(batch.id).toBe(9);
    expect(points.map((p) => p.seriesId)).toEqual([1, 2]);
    expect(batch.states.map((s) => [s.msg, s.deviceId, s.appId])).toEqual([
      [1, 2, 7],
      [2, 3, 7],
    ]);
    // the writer adds journal and compaction; a plain batch has neither
    expect(batch.journal).toBeNull();
    expect(batch.compact).toBeNull();
    expect(batch.clearJournal).toBe(-1);
  });
});
