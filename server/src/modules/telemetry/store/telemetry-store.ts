// The telemetry store: what a storage engine gives the rest of telemetry, in telemetry's words. The writer hands it
// batches (points stored idempotently on (series, ts), the rollup snapshot merged, the writer's generation and the
// device states, all in one transaction); reads ask it for the points of a window, series by key, rollup rows with the
// generation the table holds, the latest point of series; retention drops what is older than a time. SQLite
// (sqlite-store.ts, over the existing synchronous code) and PostgreSQL (pg/) give the same answers: one contract suite
// (telemetry-store.contract.ts) runs against both.
import type { PointRow } from '../read/recent.js';
import type { StoredRollups } from '../read/rollup-rows.js';
import type { SeriesRef } from '../read/series-keys.js';
import { bucketOf, type RollupLevel } from './rollups.js';
import type { BatchExecutor } from './writer-thread.js';

export type { BatchExecutor, WriteDone } from './writer-thread.js';
export type { WriteBatch, WriteResult } from './write-batch.js';
export type { StoredRollups } from '../read/rollup-rows.js';
export type { PointRow } from '../read/recent.js';
export type { SeriesRef } from '../read/series-keys.js';

/** Raw points of one series (a window is lo ≤ ts ≤ hi); rows are [ts, num, text]. */
export interface PointWindows {
  /** points of the window, oldest first, at most `limit` */
  oldest(seriesId: number, lo: number, hi: number, limit: number): Promise<PointRow[]>;
  /** points of the window, newest first, at most `limit` */
  newest(seriesId: number, lo: number, hi: number, limit: number): Promise<PointRow[]>;
  /** the newest point of the series, or null */
  last(seriesId: number): Promise<PointRow | null>;
  /** the newest point of each series, in the order asked (null: the series has none) */
  latest(seriesIds: readonly number[]): Promise<(PointRow | null)[]>;
}

/** Series looked up by their key inside an application (only these are handed to the point reads). */
export interface SeriesLookup {
  byKey(
    appId: number,
    deviceId: number,
    sensor: string,
    configtype: string,
    param: string,
    subparam: string,
  ): Promise<SeriesRef | undefined>;
  /** every subparam series of a param, by subparam (byte order) */
  ofParam(appId: number, deviceId: number, sensor: string, configtype: string, param: string): Promise<SeriesRef[]>;
  /** ids of the device's series in the application, ascending */
  idsOfDevice(appId: number, deviceId: number): Promise<number[]>;
}

/** Rollup rows as stored; the reads overlay the deltas not yet merged (reads.ts). */
export interface RollupWindows {
  /** buckets with start ≤ bucket_ts < end in time order, and `writer`'s durable generation read in the same snapshot */
  read(level: RollupLevel, seriesId: number, start: number, end: number, writer?: string): Promise<StoredRollups>;
}

export interface RetentionResult {
  /** what was dropped is older than this: the start of the UTC day `before` falls in */
  cutoff: number;
  /** partitions dropped whole (PostgreSQL) */
  droppedPartitions: string[];
  /** rows deleted one by one (SQLite; PostgreSQL's default partitions and hour rollups) */
  deletedRows: number;
}

export interface TelemetryStore {
  readonly engine: 'sqlite' | 'postgres';
  /** appends batches, one transaction each (closed by the writer that uses it) */
  readonly executor: BatchExecutor;
  readonly points: PointWindows;
  readonly series: SeriesLookup;
  readonly rollups: RollupWindows;
  /**
   * Drops points and rollup rows older than the UTC day `before` falls in: whole days, so that PostgreSQL drops
   * partitions instead of deleting rows and both engines keep the same rows.
   */
  dropOlderThan(before: number): Promise<RetentionResult>;
  /** the engine's upkeep, run hourly by whoever owns the store (PostgreSQL: the coming days' partitions) */
  maintain(): Promise<void>;
  /** stops what the store runs itself; the executor is the writer's to close, the connection its owner's */
  close(): Promise<void>;
}

export const DAY_MS = 86_400_000;

/** the first timestamp retention keeps for `before`: the start of its UTC day */
export const retentionCutoff = (before: number): number => bucketOf(before, DAY_MS);

/** how often the store's owner runs `maintain` */
export const MAINTAIN_EVERY_MS = 3_600_000;
