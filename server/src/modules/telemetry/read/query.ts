// Telemetry's reads as the rest of the gateway asks them, on either engine: series by key inside an application, a
// device's series with their latest values, points of a window, rollups with the deltas not yet merged overlaid. Every
// read answers a promise, since PostgreSQL answers over the network; on SQLite the same synchronous reads as before
// answer at once (an `await` of a value already there costs a microtask, no thread or I/O).
import type { PointReads } from './point-reads.js';
import type { TelemetryReads } from './reads.js';
import type { SeriesKeys } from './series-keys.js';

type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** series, latest values, points and rollups (reads.ts, series-keys.ts), asynchronous */
export type TelemetryQuery = Async<TelemetryReads> &
  Async<SeriesKeys> & {
    /** raw point rows [ts, num, text] of one series, memory's uncompacted points merged in (point-reads.ts) */
    points: Async<PointReads>;
  };

function lift<T extends object>(sync: T): Async<T> {
  const out = {} as Record<string, unknown>;
  for (const [k, f] of Object.entries(sync))
    if (typeof f === 'function') out[k] = (...args: unknown[]) => Promise.resolve((f as Function)(...args));
  return out as Async<T>;
}

/** the SQLite reads behind the asynchronous interface */
export function sqliteTelemetryQuery(reads: TelemetryReads, keys: SeriesKeys, points: PointReads): TelemetryQuery {
  return { ...lift(reads), ...lift(keys), points: lift(points) };
}
