// A batch for the store: the messages' points as columns (typed arrays cross to the writer thread without copying)
// and their states, indexed by message so the store's answer names them.
import type { RollupSnapshot } from './rollups.js';
import type { PointColumns, WriteBatch } from './write-batch.js';
import type { TelemetryMessage, TelemetryPoint } from '../message.js';

/** Points as columns (typed arrays travel to the writer thread without copying). */
export function toColumns(points: readonly TelemetryPoint[]): PointColumns {
  const n = points.length;
  const series = new Float64Array(n);
  const ts = new Float64Array(n);
  const num = new Float64Array(n);
  const hasNum = new Uint8Array(n);
  const textAt: number[] = [];
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    series[i] = p.seriesId;
    ts[i] = p.ts;
    if (p.num !== null) ((num[i] = p.num), (hasNum[i] = 1));
    if (p.text !== null) (textAt.push(i), texts.push(p.text));
  }
  return { series, ts, num, hasNum, textAt: Int32Array.from(textAt), texts };
}

/** The messages' points and states as one batch (no journal, no compaction: the writer adds those). */
export function toBatch(
  id: number,
  messages: readonly TelemetryMessage[],
  rollups: RollupSnapshot | null,
): { batch: WriteBatch; points: TelemetryPoint[] } {
  const points: TelemetryPoint[] = [];
  const states: WriteBatch['states'] = [];
  for (let k = 0; k < messages.length; k++) {
    const m = messages[k]!;
    for (const p of m.points) points.push(p);
    if (m.states.length) states.push({ msg: k, appId: m.appId, deviceId: m.deviceId, changes: m.states });
  }
  return {
    batch: { id, ...toColumns(points), states, rollups, journal: null, compact: null, clearJournal: -1 },
    points,
  };
}
