// What a domain profile is: believable physics as a pure step over a plain state, and the reading a device reports.
// Profiles know nothing of MQTT; the wire encoders turn a reading into each family's frames.
import type { Rng } from '../rng.js';

/** A measured value: a scalar, or `{ subparam: scalar }` (three phases, tanks per product, machines). */
export type Value = number | boolean | string | { [subparam: string]: number | boolean | string };

/** sensor → configtype → param → value, exactly the `d/<id>/data` body of docs/conventions.md "Device topics". */
export type DataTree = Record<string, Record<string, Record<string, Value>>>;

export interface Reading {
  data: DataTree;
  /** device states (`d/<id>/state`): key → JSON value, null = inactive */
  states?: Record<string, unknown>;
}

/** Something a dashboard tooltip or a rule reacts to; tests and the summary count them. */
export interface ProfileEvent {
  kind: string;
  /** simulated time, epoch ms */
  at: number;
  [detail: string]: unknown;
}

export interface CommandInput {
  sensor: string;
  configtype: string;
  param: string;
  value: unknown;
}

/** `ok` false with `code` -31 when the device refuses because it is busy (a machine mid-cycle), -10 for a bad value. */
export interface CommandOutcome<S> {
  state: S;
  ok: boolean;
  code?: number;
}

export interface ProfileContext {
  /** the device's index in the fleet (names, sizes) */
  index: number;
  /** simulated start time, epoch ms */
  startMs: number;
}

export interface Profile<S extends { t: number } = { t: number }> {
  name: ProfileName;
  /** what a person sees in the device list (≤ 32 characters with the index) */
  label: string;
  init(rng: Rng, ctx: ProfileContext): S;
  /** pure apart from `rng`: a new state `dtMs` later, and the events that happened in between */
  step(state: S, dtMs: number, rng: Rng): { state: S; events: ProfileEvent[] };
  reading(state: S): Reading;
  /** a configuration command from a card or the configuration dialog */
  command?(state: S, cmd: CommandInput): CommandOutcome<S>;
}

export const PROFILE_NAMES = ['meter', 'fuel', 'laundry', 'plug', 'environment', 'gps', 'structural'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** Hours since local midnight in Asia/Jakarta (UTC+7, no DST): the rhythm of sales, loads and weather. */
export const localHour = (t: number): number => (((t / 3_600_000 + 7) % 24) + 24) % 24;

/** A day's activity curve in [0, 1]: quiet at night, a morning and an evening peak. */
export const dayActivity = (t: number): number => activityAt(localHour(t));

/** The activity curve by local hour of the day (fractional). */
export function activityAt(h: number): number {
  const bump = (centre: number, width: number) => Math.exp(-(((h - centre) / width) ** 2));
  return Math.min(1, 0.06 + 0.85 * bump(7.5, 1.8) + 0.6 * bump(12.5, 2.5) + 0.9 * bump(17.5, 2));
}
